// Runs src/platformatic/bus.platformatic.spec.ts (started by bus.int.spec.ts beside it; rootDir: this
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
