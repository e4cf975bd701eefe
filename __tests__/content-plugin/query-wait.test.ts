/**
 * @jest-environment node
 *
 * develop: a query's root fields for content wait for the content plugin's hand-overs before they read
 * (plugins/gatsby-plugin-cyrus-content/src/query-wait.ts).
 */
import { buildSchema } from "graphql";
import {
  contentQueryFields,
  waitingResolvers,
  type ResolveInfo,
} from "../../plugins/gatsby-plugin-cyrus-content/src/query-wait";

test("the Query fields of content types and their lists are the ones that wait", () => {
  const schema = buildSchema(`
    type ServicesYaml { slug: String! }
    type ServicesYamlConnection { nodes: [ServicesYaml!]! }
    type SitePage { path: String! }
    type Query {
      servicesYaml(slug: String): ServicesYaml
      allServicesYaml: ServicesYamlConnection!
      sitePage: SitePage
    }
  `);
  expect(contentQueryFields(schema)).toEqual(["servicesYaml", "allServicesYaml"]);
});

test("a field resolves as Gatsby would have, only once the hand-overs are in", async () => {
  const order: string[] = [];
  let handedOver: () => void = () => undefined;
  const ready = () =>
    new Promise<void>((resolve) => {
      order.push("asked");
      handedOver = () => {
        order.push("handed over");
        resolve();
      };
    });
  const { Query } = waitingResolvers(["servicesYaml"], ready);
  const info: ResolveInfo = {
    originalResolver: (_source, args) => {
      order.push("resolved");
      return { slug: (args as { slug: string }).slug };
    },
  };
  const result = Query.servicesYaml!.resolve(undefined, { slug: "cdms" }, {}, info);
  await new Promise((resolve) => setImmediate(resolve));
  expect(order).toEqual(["asked"]);
  handedOver();
  await expect(result).resolves.toEqual({ slug: "cdms" });
  expect(order).toEqual(["asked", "handed over", "resolved"]);
});
