// Jest runs the TypeScript sources through SWC (types stripped, CommonJS out); the runtime
// itself uses Node 24's native type stripping, so both see the same files.
const swc = [
  '@swc/jest',
  { jsc: { target: 'es2023', parser: { syntax: 'typescript' } }, module: { type: 'commonjs' } },
];
// A package built for publishing (the client) exports its sources under this condition, dist/ otherwise.
const testEnvironmentOptions = { customExportConditions: ['node', 'node-addons', '@parcel-logistics/source'] };
const base = {
  transform: { '^.+\\.ts$': swc },
  testEnvironment: 'node',
  testEnvironmentOptions,
  moduleFileExtensions: ['ts', 'js', 'json'],
};
module.exports = {
  projects: [
    {
      ...base,
      displayName: 'unit',
      testMatch: ['<rootDir>/**/src/**/*.unit.spec.ts', '<rootDir>/test/**/*.unit.spec.ts'],
    },
    {
      ...base,
      displayName: 'int',
      testMatch: ['<rootDir>/**/src/**/*.int.spec.ts', '<rootDir>/test/**/*.int.spec.ts'],
    },
    { ...base, displayName: 'e2e', testMatch: ['<rootDir>/test/**/*.e2e.spec.ts'] },
  ],
  testPathIgnorePatterns: ['/node_modules/', '/.tools/'],
};
