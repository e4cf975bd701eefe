/**
 * The standalone service's own settings (the enquiries' are in ../enquiries/core/config.ts): where it
 * listens, how long it takes to stop, and what it makes of the proxy in front of it (nginx with
 * deploy/nginx, whose timeouts its own are set against).
 */
import { ConfigError, type Env } from "./env";
import { loadProxySettings, type ProxySettings } from "./proxy";

export interface ServiceSettings {
  host: string;
  port: number;
  /** How long a shutdown waits for requests in flight, then for e-mails under way. */
  shutdownTimeoutMs: number;
  /** ENQUIRY_TRUST_PROXY, ENQUIRY_DEADLINE_SECONDS: keep the deadline below nginx's proxy_read_timeout (30 s). */
  proxy: ProxySettings;
}

/**
 * node:http's timeouts, set against nginx's. nginx keeps idle upstream connections 30 s
 * (keepalive_timeout in deploy/nginx; proxies commonly up to 60 s): this server keeps them longer,
 * or a request sent on a connection it is closing fails. nginx reads a body whole before it passes
 * it on, so headers and body arrive at once; the bounds are for clients that reach it directly.
 */
export const SERVER_TIMEOUTS = { keepAliveTimeout: 75_000, headersTimeout: 20_000, requestTimeout: 30_000 };

/** ENQUIRY_HOST (127.0.0.1), ENQUIRY_PORT (9100), ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS (10), and the proxy's. */
export function loadServiceSettings(env: Env): ServiceSettings {
  const value = (name: string) => env[name]?.trim() || undefined;
  const port = value("ENQUIRY_PORT") ?? "9100";
  if (!/^\d+$/.test(port) || Number(port) > 65535)
    throw new ConfigError(`ENQUIRY_PORT must be a port number from 0 to 65535 (got "${port}")`);
  const timeout = value("ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS") ?? "10";
  if (!/^\d+$/.test(timeout) || Number(timeout) < 1) {
    throw new ConfigError(`ENQUIRY_SHUTDOWN_TIMEOUT_SECONDS must be a whole number above 0 (got "${timeout}")`);
  }
  return {
    host: value("ENQUIRY_HOST") ?? "127.0.0.1",
    port: Number(port),
    shutdownTimeoutMs: Number(timeout) * 1000,
    proxy: loadProxySettings(env),
  };
}
