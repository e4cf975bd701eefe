/**
 * The release status (./release-status) in a small bar at the foot of the studio, read again every
 * 15 s. Announced politely to screen readers; nothing at all where the site has no status.
 */
import { useEffect, useState } from "react";
import { createRoot } from "react-dom/client";
import { describeStatus, STATUS_PATH, type ReleaseStatus, type StatusLine } from "./release-status";

const POLL_MS = 15_000;

export const STATUS_STYLE = `
.cyrus-release { position: fixed; left: 0; right: 0; bottom: 0; z-index: 500; max-height: 40vh; overflow: auto;
  margin: 0; padding: 0.5rem 1rem; list-style: none; background: #fff; border-top: 1px solid #dfdfe3;
  font: 14px/1.4 system-ui, sans-serif; color: #313d3e; }
.cyrus-release li { margin: 0.15rem 0; }
.cyrus-release [data-tone="failed"] { color: #a30000; }
.cyrus-release [data-tone="running"] { color: #5c4300; }
.cyrus-release pre { margin: 0.25rem 0 0; white-space: pre-wrap; font-size: 13px; color: #313d3e; }
`;

export function ReleaseStatusBar({ lines }: { lines: StatusLine[] }) {
  if (lines.length === 0) return null;
  return (
    <ul className="cyrus-release" role="status" aria-label="Publishing">
      {lines.map((line) => (
        <li key={line.tone} data-tone={line.tone}>
          {line.text}
          {line.detail ? <pre>{line.detail}</pre> : null}
        </li>
      ))}
    </ul>
  );
}

function PolledStatus() {
  const [status, setStatus] = useState<ReleaseStatus | null>(null);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    let stopped = false;
    const read = async () => {
      try {
        const response = await fetch(STATUS_PATH, { cache: "no-store" });
        if (!stopped) setStatus(response.ok ? ((await response.json()) as ReleaseStatus) : null);
      } catch {
        // Offline for a moment: keep what was shown.
      }
      if (!stopped) setNow(Date.now());
    };
    void read();
    const timer = setInterval(() => void read(), POLL_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, []);
  return status ? <ReleaseStatusBar lines={describeStatus(status, now)} /> : null;
}

export function mountReleaseStatus(): void {
  const style = document.createElement("style");
  style.textContent = STATUS_STYLE;
  document.head.append(style);
  const host = document.createElement("div");
  document.body.append(host);
  createRoot(host).render(<PolledStatus />);
}
