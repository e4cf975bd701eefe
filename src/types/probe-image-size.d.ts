// probe-image-size 7 ships no types; the one function the content check uses.
declare module "probe-image-size/sync" {
  interface ProbeResult {
    width: number;
    height: number;
    type: string;
  }
  const probeSync: (data: Buffer) => ProbeResult | null;
  export default probeSync;
}
