/**
 * @module main
 * CLI for `npm run sandbox`: reads SANDBOX_* environment variables (`env.ts`), starts the
 * sandbox and prints one line with its URL. Never prints the API key or the signing key. An
 * invalid or busy port is a one-line error and exit code 1; SIGINT/SIGTERM close cleanly, and
 * so does the parent's exit: `npm run sandbox` runs `sh -c "node …"`, and a SIGTERM to npm
 * reaches `sh` only, which dies without passing it on (`demo/run/parent-watch.ts`).
 */
import { watchParent } from "../run/parent-watch.ts";
import { optionsFromEnv } from "./env.ts";
import { startSandbox } from "./server.ts";

let options: ReturnType<typeof optionsFromEnv>;
try {
  options = optionsFromEnv(process.env);
} catch (err) {
  console.error(`sandbox: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
}
const { port, webhookUrl } = options;

try {
  const sb = await startSandbox(options);
  const stop = () => {
    void sb.close().then(() => process.exit(0));
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  watchParent(stop);
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
