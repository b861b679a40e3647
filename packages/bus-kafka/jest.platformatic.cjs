// Runs src/kafka.platformatic.spec.ts (started by src/platformatic.int.spec.ts; rootDir: this
// directory). @platformatic/kafka and its @platformatic dependencies are ES modules only: SWC turns
// them into CommonJS here, as the repository's Jest (jest.config.cjs) does for the TypeScript sources.
const swc = (syntax) => ['@swc/jest', { jsc: { target: 'es2023', parser: { syntax } }, module: { type: 'commonjs' } }];
module.exports = {
  testEnvironment: 'node',
  testMatch: ['<rootDir>/src/**/*.platformatic.spec.ts'],
  transform: { '^.+\\.ts$': swc('typescript'), '/@platformatic/.+\\.js$': swc('ecmascript') },
  transformIgnorePatterns: ['/node_modules/(?!(\\.pnpm/[^/]+/node_modules/)?@platformatic/)'],
  moduleFileExtensions: ['ts', 'js', 'json'],
};
