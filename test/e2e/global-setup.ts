/**
 * @module
 * Builds the widget once for the whole e2e run (each file's stack then reuses `dist/public`),
 * and checks that the system Chromium is there before any stack starts.
 * `E2E_SKIP_BUILD=1` reuses the last build.
 */
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { CHROMIUM_PATH } from "./support/browser.ts";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

export default function setup(): void {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(
      `No Chromium at ${CHROMIUM_PATH}: install Debian's (apt-get install -y chromium) or set CHROMIUM_PATH. The tests never download a browser.`,
    );
  }
  if (process.env.E2E_SKIP_BUILD === "1") return;
  const build = spawnSync(process.execPath, ["scripts/build-widget.ts"], {
    cwd: ROOT,
    encoding: "utf8",
  });
  if (build.status !== 0) {
    throw new Error(`widget build failed:\n${build.stdout}\n${build.stderr}`);
  }
}
