import { closest, distance } from "fastest-levenshtein";

/** The candidate an editor most likely meant to type, if one is close enough (a slip of a letter or two). */
export function similar(typed: string, candidates: readonly string[]): string | undefined {
  if (candidates.length === 0) return undefined;
  const guess = closest(
    typed.toLowerCase(),
    candidates.map((c) => c.toLowerCase()),
  );
  const index = candidates.findIndex((c) => c.toLowerCase() === guess);
  return distance(typed.toLowerCase(), guess) <= Math.max(2, Math.floor(typed.length / 4))
    ? candidates[index]
    : undefined;
}
