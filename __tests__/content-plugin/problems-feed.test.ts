/**
 * @jest-environment node
 *
 * The develop server's endpoints, over real HTTP on loopback, behind the compression middleware
 * Gatsby's develop server puts in front of every route: GET /__content-check answers the problems as
 * JSON, and /__content-check/events streams them to the overlay when they change, each at once.
 */
import http from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import type { ContentProblem } from "../../src/node/content/problems";
import { EVENTS_PATH, FEED_PATH } from "../../plugins/gatsby-plugin-cyrus-content/src/endpoints";
import { ProblemsFeed } from "../../plugins/gatsby-plugin-cyrus-content/src/problems-feed";

const typo: ContentProblem = {
  file: "data/services/a.yaml",
  line: 6,
  column: 1,
  field: "titel",
  message: "is not a known field",
};

type Middleware = (req: http.IncomingMessage, res: http.ServerResponse, next: () => void) => void;
// Gatsby's own copy (gatsby/dist/utils/start-server.js: app.use(compression())).
const gatsbyRequire = createRequire(require.resolve("gatsby"));
const compression = gatsbyRequire("compression") as () => Middleware;

let feed: ProblemsFeed;
let server: http.Server;
let origin: string;

beforeEach(async () => {
  feed = new ProblemsFeed();
  const compress = compression();
  server = http.createServer((req, res) =>
    compress(req, res, () => {
      if (req.url === FEED_PATH) feed.json(req, res);
      else if (req.url === EVENTS_PATH) feed.events(req, res);
      else res.writeHead(404).end();
    }),
  );
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterEach(async () => {
  feed.close();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

test("GET /__content-check: the problems as JSON, none at first", async () => {
  const res = await fetch(`${origin}${FEED_PATH}`);
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toMatch(/^application\/json/);
  expect(res.headers.get("cache-control")).toBe("no-store");
  expect(await res.json()).toEqual({ problems: [], heldBack: [], warnings: [] });

  const heldBack = [{ file: typo.file, lastGood: true }];
  expect(feed.update([typo], heldBack)).toBe(true);
  expect(await (await fetch(`${origin}${FEED_PATH}`)).json()).toEqual({ problems: [typo], heldBack, warnings: [] });
});

test("the event stream sends the problems on connecting and whenever they change, only then", async () => {
  const controller = new AbortController();
  // As a browser asks: compressed if possible.
  const res = await fetch(`${origin}${EVENTS_PATH}`, {
    signal: controller.signal,
    headers: { "Accept-Encoding": "gzip, deflate, br" },
  });
  expect(res.headers.get("content-type")).toMatch(/^text\/event-stream/);
  expect(res.headers.get("content-encoding")).toBeNull();
  const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
  let received = "";
  /** The next event's data (bounded: Jest's timeout). */
  const nextEvent = async (): Promise<unknown> => {
    while (!received.includes("\n\n")) {
      const { value, done } = await reader.read();
      if (done) throw new Error("the stream ended");
      received += value;
    }
    const [event, ...rest] = received.split("\n\n");
    received = rest.join("\n\n");
    return JSON.parse(event!.replace(/^data: /, ""));
  };

  expect(await nextEvent()).toEqual({ problems: [], heldBack: [], warnings: [] });
  expect(feed.connections).toBe(1);
  expect(feed.update([])).toBe(false); // unchanged: nothing sent
  feed.update([typo]);
  expect(await nextEvent()).toEqual({ problems: [typo], heldBack: [], warnings: [] });
  feed.update([typo], [{ file: typo.file, lastGood: true }]);
  expect(await nextEvent()).toEqual({
    problems: [typo],
    heldBack: [{ file: typo.file, lastGood: true }],
    warnings: [],
  });
  feed.update([]);
  expect(await nextEvent()).toEqual({ problems: [], heldBack: [], warnings: [] });
  feed.update([], [], [typo]); // a warning alone is news too
  expect(await nextEvent()).toEqual({ problems: [], heldBack: [], warnings: [typo] });
  controller.abort();
});
