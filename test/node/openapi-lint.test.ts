/**
 * The OpenAPI document passes a standard validator (`@apidevtools/swagger-parser`: the
 * OpenAPI 3.1 meta-schema plus its own rules: unique operationIds, path parameters declared,
 * every `$ref` resolving), and a few properties no validator checks.
 */
import SwaggerParser from "@apidevtools/swagger-parser";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "../../worker/lib/api/openapi/document.ts";

type Operation = {
  operationId: string;
  security: unknown[];
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
};

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (swagger-parser validate)", async () => {
    const api = await SwaggerParser.validate(structuredClone(openApiDocument()) as never);
    expect((api as { openapi?: string }).openapi).toBe("3.1.0");
  });

  it("the validator refuses a broken document (so passing means something)", async () => {
    const broken = structuredClone(openApiDocument()) as {
      paths: Record<string, { get: { responses: unknown } }>;
    };
    broken.paths["/v1/doctor"]!.get.responses = 5;
    await expect(SwaggerParser.validate(broken as never)).rejects.toThrow(/must be object/);
    const dangling = structuredClone(openApiDocument()) as {
      components: { schemas: Record<string, unknown> };
    };
    delete dangling.components.schemas.PayoutView;
    await expect(SwaggerParser.validate(dangling as never)).rejects.toThrow(/PayoutView/);
  });

  it("asks a merchant token of exactly the merchant routes", () => {
    const paths = openApiDocument().paths as Record<string, Record<string, Operation>>;
    for (const [path, item] of Object.entries(paths)) {
      for (const operation of Object.values(item)) {
        const merchant =
          /^\/v1\/(orders|payouts|notifications|doctor)/.test(path) && path !== "/v1/openapi.json";
        expect([path, operation.security.length > 0]).toEqual([path, merchant]);
      }
    }
  });

  it("publishes amounts as decimal-string patterns, never numbers", () => {
    const schemas = (openApiDocument().components as { schemas: Record<string, unknown> }).schemas;
    const text = JSON.stringify(schemas);
    for (const field of ["amount", "amountPaid", "minInvoiceAmount", "totalDeduction"]) {
      expect(text).toContain(`"${field}":{"type":"string","pattern":"^\\\\d+(\\\\.\\\\d+)?$"}`);
    }
  });
});
