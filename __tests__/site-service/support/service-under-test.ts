/**
 * The enquiry service as the inbox's tests run it: on an engine under test, for the inbox's origin,
 * on a free port, with the tests' clock and no mail. `serviceUnderTest(engine)` is called in a
 * describe block: it shuts the service down and removes its store after each test.
 */
import { createEnquiryService, jsonLog, type EnquiryService } from "../../../src/site-service/service/server";
import type { EngineUnderTest } from "./engines";
import { projectRoot } from "./harness";
import { NOW, ORIGIN } from "./inbox-client";

export interface Started {
  service: EnquiryService;
  /** The service's settings (the store's among them), as the operator's CLI is given them. */
  env: Awaited<ReturnType<EngineUnderTest["env"]>> & { SITE_URL: string; ENQUIRY_PORT: string };
  port: number;
}

export function serviceUnderTest(
  engine: EngineUnderTest,
): (options?: { log?: (line: string) => void }) => Promise<Started> {
  let service: EnquiryService | undefined;
  afterEach(async () => {
    await service?.shutdown("test");
    service = undefined;
    await engine.cleanUp();
  });
  return async (options = {}) => {
    const env = { ...(await engine.env()), SITE_URL: `${ORIGIN}/`, ENQUIRY_PORT: "0" };
    service = createEnquiryService({
      env,
      log: jsonLog(options.log ?? (() => undefined)),
      receiverOptions: { now: () => NOW, mailer: null },
      projectRoot,
    });
    const { port } = await service.listen();
    return { service, env, port };
  };
}
