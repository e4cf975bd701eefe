/** Times as the inbox shows them: the reader's own time zone and language. */
export function when(iso: string | undefined | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  return Number.isNaN(date.getTime())
    ? iso
    : date.toLocaleString(undefined, { dateStyle: "medium", timeStyle: "short" });
}

/** A duration (ms) in the largest unit that reads well: "under a minute", "3 h 20 min", "2 days 4 h". */
export function duration(ms: number | null): string {
  if (ms === null) return "none answered";
  if (ms < 60_000) return "under a minute";
  const minutes = Math.round(ms / 60_000);
  if (minutes < 60) return `${minutes} min`;
  const hours = Math.floor(minutes / 60);
  if (hours < 48) return `${hours} h ${minutes % 60} min`;
  return `${Math.floor(hours / 24)} days ${hours % 24} h`;
}

/**
 * A delivery's name for people: "email", "webhook", or a reply's ("reply of 7 Dec 2026, 18:27"),
 * whose outbox row is named "reply:<its id>".
 */
export function deliveryName(destination: string, replies: ReadonlyArray<{ id: string; at: string }> = []): string {
  if (!destination.startsWith("reply:")) return destination;
  const reply = replies.find((r) => `reply:${r.id}` === destination);
  return reply ? `reply of ${when(reply.at)}` : "reply";
}
