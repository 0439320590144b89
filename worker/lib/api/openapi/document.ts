/**
 * @module
 * The OpenAPI 3.1 document of `/v1` (`GET /v1/openapi.json`), generated from the route table
 * (`operations.ts`) and its zod schemas with zod's own JSON Schema output (draft 2020-12, the
 * dialect of OpenAPI 3.1): never written by hand beside the routes. Run at build time
 * (`npm run build:openapi` writes `openapi.json`, which the worker serves through
 * `published.ts`), so the worker bundle carries neither this code nor zod's JSON Schema output.
 */
import * as z from "zod/mini";
import { INSTANT } from "../merchant-ops.ts";
import { notificationType } from "../schemas/merchant-ops-answers.ts";
import { type Answer, NAMED, OPERATIONS, type Operation } from "./operations.ts";

type Json = Record<string, unknown>;

const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

/** A readable component name from an operation id: `openCheckout` → `OpenCheckout`. */
const pascal = (id: string) => id[0]!.toUpperCase() + id.slice(1);

/**
 * Names every schema the document uses and converts them all at once, so a shared schema is
 * one component and the others `$ref` it.
 */
function components(io: "input" | "output", schemas: [string, z.ZodMiniType][]): Json {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of schemas) registry.add(schema, { id });
  const { schemas: converted } = z.toJSONSchema(registry, {
    io,
    uri: (id) => `#/components/schemas/${id}`,
    unrepresentable: "any",
    override: ({ jsonSchema }) => {
      // An instant is a plain pattern check in the worker (`INSTANT`): its format, named as
      // `z.iso.datetime` names it, before the pattern.
      if (jsonSchema.pattern !== INSTANT.source) return;
      delete jsonSchema.pattern;
      Object.assign(jsonSchema, { format: "date-time", pattern: INSTANT.source });
    },
  }) as { schemas: Record<string, Json> };
  // Each is a component, not a standalone document.
  for (const schema of Object.values(converted)) {
    delete schema.$schema;
    delete schema.$id;
  }
  return converted;
}

function response(answer: Answer, schemaId: string | undefined): Json {
  const headers = answer.headers && {
    headers: Object.fromEntries(
      Object.entries(answer.headers).map(([name, description]) => [
        name,
        { description, schema: { type: "string" } },
      ]),
    ),
  };
  return { ...content(answer, schemaId), ...headers };
}

function content(answer: Answer, schemaId: string | undefined): Json {
  if ("json" in answer) {
    return {
      description: answer.description,
      content: { "application/json": { schema: ref(schemaId!) } },
    };
  }
  if ("csv" in answer) {
    return {
      description: answer.description,
      content: { "text/csv": { schema: { type: "string" } } },
    };
  }
  if ("sse" in answer) {
    return {
      description: answer.description,
      content: { "text/event-stream": { schema: { type: "string" } } },
    };
  }
  return { description: answer.description };
}

/** The JSON Schema of each query parameter, from the query's object schema. */
function queryParameters(op: Operation, converted: Json): Json[] {
  const schema = converted[`${pascal(op.id)}Query`] as { properties?: Json; required?: string[] };
  return Object.entries(schema.properties ?? {}).map(([name, property]) => ({
    name,
    in: "query",
    required: schema.required?.includes(name) ?? false,
    schema: property,
  }));
}

const SECURITY: Record<Operation["caller"], Json[] | undefined> = {
  anyone: [],
  storefront: [],
  merchant: [{ merchantToken: [] }],
};

function build(): Json {
  const requests: [string, z.ZodMiniType][] = [];
  const responses: [string, z.ZodMiniType][] = [...NAMED];
  const named = new Map<z.ZodMiniType, string>(NAMED.map(([id, schema]) => [schema, id]));
  const answerIds = new Map<Answer, string>();
  for (const op of OPERATIONS) {
    if (op.body) requests.push([`${pascal(op.id)}Request`, op.body.schema]);
    if (op.query) requests.push([`${pascal(op.id)}Query`, op.query]);
    for (const [status, answer] of Object.entries(op.answers)) {
      if (!("json" in answer)) continue;
      let id = named.get(answer.json);
      if (id === undefined) {
        id = `${pascal(op.id)}${status}`;
        responses.push([id, answer.json]);
        named.set(answer.json, id);
      }
      answerIds.set(answer, id);
    }
  }
  const input = components("input", requests);
  const output = components("output", responses);
  const paths: Record<string, Json> = {};
  for (const op of OPERATIONS) {
    const parameters = [
      ...Object.entries(op.params ?? {}).map(([name, description]) => ({
        name,
        in: "path",
        required: true,
        description,
        schema: { type: "string" },
      })),
      ...(op.query ? queryParameters(op, input) : []),
    ];
    paths[op.path] ??= {};
    paths[op.path]![op.method] = {
      operationId: op.id,
      summary: op.summary,
      tags: [op.tag],
      security: SECURITY[op.caller],
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(op.body
        ? {
            requestBody: {
              required: !op.body.optional,
              content: { "application/json": { schema: ref(`${pascal(op.id)}Request`) } },
            },
          }
        : {}),
      responses: {
        ...Object.fromEntries(
          Object.entries(op.answers).map(([status, answer]) => [
            status,
            response(answer, answerIds.get(answer)),
          ]),
        ),
        // Any route may also answer 503 config_error / service_busy, 429, 500 internal.
        default: {
          description: "Any other error: { error: { code, message } }",
          content: { "application/json": { schema: ref("ApiError") } },
        },
      },
    };
  }
  const queries = Object.keys(input).filter((id) => id.endsWith("Query"));
  for (const id of queries) delete input[id];
  return {
    openapi: "3.1.0",
    info: {
      title: "crypto-checkout worker",
      version: "1",
      description:
        "The worker's HTTP API. Amounts are decimal strings; errors are { error: { code, message } }. Merchant routes take `Authorization: Bearer <MERCHANT_API_TOKEN>`; storefront routes are called by the widget from `ALLOWED_ORIGINS`.",
    },
    servers: [{ url: "/" }],
    tags: [...new Set(OPERATIONS.map((op) => op.tag))].map((name) => ({ name })),
    paths,
    webhooks: notificationWebhook(),
    components: {
      schemas: { ...input, ...output },
      securitySchemes: {
        merchantToken: { type: "http", scheme: "bearer", description: "MERCHANT_API_TOKEN" },
      },
    },
  };
}

/** The notification the worker POSTs to `MERCHANT_WEBHOOK_URL`. */
function notificationWebhook(): Json {
  const body = z.toJSONSchema(
    z.object({
      id: z.string(),
      type: notificationType,
      createdAt: z.string(),
      data: z.record(z.string(), z.unknown()),
    }),
  ) as Json;
  delete body.$schema;
  return {
    notification: {
      post: {
        summary: "A signed notification to MERCHANT_WEBHOOK_URL; verify, dedupe on id, answer 2xx",
        parameters: [
          {
            name: "x-checkout-signature",
            in: "header",
            required: true,
            description: 't=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<raw body>")>',
            schema: { type: "string" },
          },
          { name: "x-checkout-event-id", in: "header", required: true, schema: { type: "string" } },
        ],
        requestBody: { required: true, content: { "application/json": { schema: body } } },
        responses: { "200": { description: "Any 2xx acknowledges it; anything else is retried" } },
      },
    },
  };
}

let built: string | undefined;

/**
 * The document's JSON text (built on first use, then kept: it depends on nothing at run time).
 *
 * @example
 * new Response(openApiJson(), { headers: { "content-type": "application/json" } });
 */
export function openApiJson(): string {
  built ??= JSON.stringify(build());
  return built;
}

/** The document as an object (tests, `npm test`'s lint). */
export function openApiDocument(): Json {
  return JSON.parse(openApiJson()) as Json;
}
