// Loaded into every test file's process by test/run.mjs (--import), before the file runs.
// Node's test runner sets FORCE_COLOR=1 in each test file when its own output is a terminal; the
// commands and ink views the tests start would then draw colour codes into text the tests match
// as plain. Output is plain in a terminal as in CI; a test that wants colour asks for it
// (cleanEnv({ FORCE_COLOR: '1' }), test/support/cli.ts).
delete process.env.FORCE_COLOR
