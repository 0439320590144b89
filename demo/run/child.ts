/**
 * @module
 * One supervised child process of the demo: its own process group, prefixed output, and a
 * stop that leaves nothing behind.
 *
 * Invariants:
 * - every child leads a new process group (`detached`), so stopping it signals the group and
 *   reaches grandchildren too (wrangler's workerd); Ctrl-C in the terminal reaches only the
 *   runner, which then stops the children in order;
 * - if the runner exits without stopping (a crash), an `exit` hook SIGKILLs the groups left.
 */
import { type ChildProcess, spawn } from "node:child_process";

/** Lines shown even in quiet mode: warnings, errors, crashes. */
const IMPORTANT = /\b(error|warn|warning|fail|failed|exception|uncaught|unhandled)\b|✘|▲/i;
// biome-ignore lint/suspicious/noControlCharactersInRegex: ANSI escape sequences start with ESC.
const ANSI = /\u001b\[[0-9;?]*[A-Za-z]/g;
const RECENT_LINES = 60;

/** How a child is started and how its output is shown. */
export interface ChildOptions {
  /** Short name used as the output prefix: `[sandbox]`. */
  name: string;
  /** Arguments to `node` (the runner's own binary). */
  args: string[];
  cwd: string;
  env: Record<string, string>;
  quiet: boolean;
  log: (line: string) => void;
}

/** A running child. */
export interface Child {
  readonly name: string;
  /** Resolves with the exit code (or signal name) once the group leader exits. */
  readonly exited: Promise<number | string>;
  /** True until the group leader exits. */
  running(): boolean;
  /** The last lines of output, for error messages. */
  recent(): string[];
  /** SIGTERM to the group, SIGKILL after `graceMs`; resolves when the leader is gone. */
  stop(graceMs?: number): Promise<void>;
}

const live = new Set<ChildProcess>();
let exitHookInstalled = false;

function signalGroup(proc: ChildProcess, signal: NodeJS.Signals): void {
  if (proc.pid === undefined) return;
  try {
    process.kill(-proc.pid, signal);
  } catch {
    // ESRCH: the group is already gone.
  }
}

function groupAlive(proc: ChildProcess): boolean {
  if (proc.pid === undefined) return false;
  try {
    process.kill(-proc.pid, 0);
    return true;
  } catch {
    return false;
  }
}

function installExitHook(): void {
  if (exitHookInstalled) return;
  exitHookInstalled = true;
  process.on("exit", () => {
    for (const proc of live) signalGroup(proc, "SIGKILL");
  });
}

function forwardLines(stream: NodeJS.ReadableStream, onLine: (line: string) => void): void {
  let buffer = "";
  stream.setEncoding("utf8");
  stream.on("data", (chunk: string) => {
    buffer += chunk;
    const lines = buffer.split(/\r?\n/);
    buffer = lines.pop() ?? "";
    for (const line of lines) onLine(line);
  });
  stream.on("end", () => {
    if (buffer) onLine(buffer);
  });
}

/**
 * Starts `node <args>` as a supervised child.
 *
 * @example
 * const sandbox = startChild({ name: "sandbox", args: ["demo/sandbox/main.ts"], cwd, env: {},
 *   quiet: true, log: console.log });
 * await sandbox.stop();
 */
export function startChild(options: ChildOptions): Child {
  installExitHook();
  const proc = spawn(process.execPath, options.args, {
    cwd: options.cwd,
    env: { ...process.env, NO_COLOR: "1", FORCE_COLOR: "0", ...options.env },
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  live.add(proc);
  const recent: string[] = [];
  const prefix = `[${options.name}]`;
  const onLine = (raw: string) => {
    const line = raw.replace(ANSI, "").trimEnd();
    if (!line.trim()) return;
    recent.push(line);
    if (recent.length > RECENT_LINES) recent.shift();
    if (!options.quiet || IMPORTANT.test(line)) options.log(`${prefix} ${line}`);
  };
  if (proc.stdout) forwardLines(proc.stdout, onLine);
  if (proc.stderr) forwardLines(proc.stderr, onLine);

  let running = true;
  const exited = new Promise<number | string>((resolve) => {
    proc.once("error", (error) => {
      onLine(`failed to start: ${error.message}`);
      running = false;
      live.delete(proc);
      resolve("spawn-error");
    });
    proc.once("exit", (code, signal) => {
      running = false;
      live.delete(proc);
      resolve(code ?? signal ?? "unknown");
    });
  });

  return {
    name: options.name,
    exited,
    running: () => running,
    recent: () => [...recent],
    async stop(graceMs = 5000) {
      if (running) {
        signalGroup(proc, "SIGTERM");
        const timer = new Promise<"timeout">((r) => setTimeout(r, graceMs, "timeout").unref());
        await Promise.race([exited, timer]);
      }
      // Grandchildren (workerd) may outlive their leader: make sure the whole group is gone.
      signalGroup(proc, "SIGKILL");
      await exited;
      for (let i = 0; i < 40 && groupAlive(proc); i++) await new Promise((r) => setTimeout(r, 50));
    },
  };
}
