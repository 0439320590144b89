/**
 * @module main
 * CLI for `npm run sandbox`: reads SANDBOX_* environment variables, starts the sandbox and
 * prints one line with its URL. Never prints the API key or the signing key. A busy port is a
 * one-line error and exit code 1; SIGINT/SIGTERM close cleanly.
 */
import { startSandbox } from "./server.ts";

const env = process.env;
const port = Number(env.SANDBOX_PORT ?? "8788");
const webhookEnv = env.SANDBOX_WEBHOOK_URL ?? "http://127.0.0.1:8787/webhooks/payment";
const webhookUrl = webhookEnv === "off" ? null : webhookEnv;

if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`sandbox: SANDBOX_PORT must be a port number, got "${env.SANDBOX_PORT}"`);
  process.exit(1);
}

try {
  const sb = await startSandbox({
    port,
    apiKey: env.SANDBOX_API_KEY || "sk_sandbox_demo",
    accountId: env.SANDBOX_ACCOUNT_ID || "00000000-0000-4000-8000-000000000001",
    webhookSigningKey: env.SANDBOX_WEBHOOK_SIGNING_KEY || "whsec_sandbox_demo",
    webhookUrl,
  });
  const stop = () => {
    void sb.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  console.log(
    `sandbox listening on ${sb.url} (account ${sb.sandbox.options.accountId}, webhooks ${webhookUrl ?? "off"})`,
  );
} catch (err) {
  const code = (err as { code?: string }).code;
  const reason =
    code === "EADDRINUSE"
      ? `port ${port} is already in use (set SANDBOX_PORT to another port)`
      : err instanceof Error
        ? err.message
        : String(err);
  console.error(`sandbox: cannot start: ${reason}`);
  process.exit(1);
}
