// Which body types a route takes, declared on the route: JSON on every route, and besides it the types a
// handler names with @TakesBody, which the OpenAPI document shows and the request hook enforces before any
// parser runs (common/content-type.ts; docs/decisions.md, "Requests: body types").
import { applyDecorators } from '@nestjs/common';
import { RouteConfig } from '@nestjs/platform-fastify';
import { ApiConsumes } from '@nestjs/swagger';
import type { FastifyRequest } from 'fastify';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';
export const MULTIPART_TYPE = 'multipart/form-data';

export type OtherBodyType = typeof FORM_TYPE | typeof MULTIPART_TYPE;

/** The route takes a body of `type` instead of JSON (the token endpoint's form, the KYC upload). */
export const TakesBody = (type: OtherBodyType) =>
  applyDecorators(ApiConsumes(type), RouteConfig({ bodyTypes: [type] }));

/** The types besides JSON that the request's route declared with @TakesBody. */
export function declaredBodyTypes(request: FastifyRequest): readonly string[] {
  const config = request.routeOptions.config as { bodyTypes?: readonly string[] } | undefined;
  return config?.bodyTypes ?? [];
}
