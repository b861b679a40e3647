declare module 'kafkajs/src/network/requestQueue/index.js' {
  interface RequestQueue {
    pending: unknown[];
    throttledUntil: number;
    scheduleCheckPendingRequests(): void;
  }
  const RequestQueue: { prototype: RequestQueue };
  export default RequestQueue;
}
