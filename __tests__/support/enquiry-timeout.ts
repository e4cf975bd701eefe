// The enquiry project's bound per test (see jest.config.ts): Jest 30 ignores testTimeout in a
// project's own config and keeps its 5 s, which a loaded machine's synced commits exceed.
jest.setTimeout(30_000);
