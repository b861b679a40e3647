// pdfmake's server-side printer class, imported directly so each renderer owns its fonts and
// virtual file system instead of sharing the pdfmake singleton's.
declare module 'pdfmake/js/Printer.js' {
  const exported: unknown;
  export default exported;
}
