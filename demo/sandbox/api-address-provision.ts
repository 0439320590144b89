/**
 * @module api-address-provision
 * `POST /address-provision` and `GET /address-provision`, as the service answers them since its
 * SDK 1.5.0 deprecated address provisioning: 503 `exceptions.addressProvision.temporarilyDisabled`
 * (after the API-key check, like every public route). Clients create one deposit per payment.
 */
import type { Hono } from "hono";
import { WireError } from "./wire.ts";

function disabled(): never {
  throw new WireError(
    503,
    "exceptions.addressProvision.temporarilyDisabled",
    "Address provisioning is temporarily disabled: create a deposit instead",
  );
}

/**
 * Registers the two address-provision routes.
 * @example
 * registerAddressProvision(app);
 */
export function registerAddressProvision(app: Hono): void {
  app.post("/address-provision", disabled);
  app.get("/address-provision", disabled);
}
