// autocannon ships no type declarations; cannon.ts describes the part of its API it uses.
declare module "autocannon" {
  const autocannon: unknown;
  export default autocannon;
}
