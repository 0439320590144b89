/**
 * @module
 * The bench's x402 stage: what paying a checkout from a wallet costs on top of the
 * facilitator's own time. Each round opens a checkout and reads its terms (untimed), signs an
 * EIP-3009 authorization with a fresh local key (untimed), then times the worker's
 * `POST /v1/checkouts/:id/x402` with `PAYMENT-SIGNATURE` to its 200; beside it, the same
 * facilitator work asked of the sandbox directly (`POST /x402/verify` then `/x402/settle` for
 * another fresh authorization). Added p50 = worker − direct; beside it, the floor's new-object
 * write → fetch → write shape with two fetches' worth of the call removed (the stage reports
 * both, so the ratio can be read against the design's 1.5×).
 *
 * Keys: `x402_pay_p50_ms`, `x402_facilitator_direct_p50_ms`, `x402_pay_added_p50_ms`.
 */
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { signAuthorization } from "../../test/support/x402-sign.ts";
import { decodeBase64Json, encodeBase64Json } from "../../worker/lib/x402/base64-json.ts";
import type { PaymentRequired, PaymentRequirements } from "../../worker/lib/x402/protocol.ts";
import { keep, ms, pct, row, sorted } from "./report.ts";

/** A signed payload for `req` from a fresh payer (what a wallet makes; not timed). */
async function signedPayload(required: PaymentRequired, req: PaymentRequirements) {
  const payer = privateKeyToAccount(generatePrivateKey());
  const { authorization, signature } = await signAuthorization(payer, req);
  return {
    x402Version: 2,
    resource: required.resource,
    accepted: req,
    payload: { signature, authorization },
  };
}

/**
 * Runs `rounds` timed payments; `open` opens a fresh USD checkout and answers its id.
 *
 * @example
 * await x402Pay({ sandboxUrl, workerUrl, apiKey, rounds: 50, open: (i) => openCheckoutId(i) });
 */
export async function x402Pay(input: {
  sandboxUrl: string;
  workerUrl: string;
  apiKey: string;
  rounds: number;
  open: (i: number) => Promise<string>;
}): Promise<void> {
  const { sandboxUrl, workerUrl, apiKey, rounds } = input;
  const viaWorker: number[] = [];
  const direct: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const id = await input.open(i);
    const url = `${workerUrl}/v1/checkouts/${id}/x402`;
    const terms = await fetch(url, {
      method: "POST",
      headers: { "cf-connecting-ip": `10.9.${i >> 8}.${i & 255}` },
    });
    await terms.arrayBuffer();
    if (terms.status !== 402) throw new Error(`x402 terms: HTTP ${terms.status}`);
    const required = decodeBase64Json(
      terms.headers.get("PAYMENT-REQUIRED") ?? "",
    ) as PaymentRequired;
    const req = required.accepts[0]!;
    const header = encodeBase64Json(await signedPayload(required, req));
    const t0 = performance.now();
    const paid = await fetch(url, {
      method: "POST",
      headers: { "PAYMENT-SIGNATURE": header, "cf-connecting-ip": `10.10.${i >> 8}.${i & 255}` },
    });
    await paid.arrayBuffer();
    viaWorker.push(performance.now() - t0);
    if (paid.status !== 200) throw new Error(`x402 pay: HTTP ${paid.status}`);

    const body = JSON.stringify({
      x402Version: 2,
      paymentPayload: await signedPayload(required, req),
      paymentRequirements: req,
    });
    const headers = { "content-type": "application/json", "x-tenant-api-key": apiKey };
    const t1 = performance.now();
    for (const op of ["verify", "settle"]) {
      const res = await fetch(`${sandboxUrl}/x402/${op}`, { method: "POST", headers, body });
      await res.arrayBuffer();
      if (!res.ok) throw new Error(`facilitator ${op}: HTTP ${res.status}`);
    }
    direct.push(performance.now() - t1);
  }
  const [w, d] = [sorted(viaWorker), sorted(direct)];
  row(
    `x402 pay, facilitator directly (verify + settle) / via worker, p50 (n=${rounds})`,
    `${ms(pct(d, 50))} / ${ms(pct(w, 50))}`,
  );
  row("x402 pay, worker's added latency, p50", ms(pct(w, 50) - pct(d, 50)));
  keep("x402_pay_p50_ms", pct(w, 50));
  keep("x402_facilitator_direct_p50_ms", pct(d, 50));
  keep("x402_pay_added_p50_ms", pct(w, 50) - pct(d, 50));
}
