import { Body, Controller, Headers, HttpCode, Ip, Post, type RawBodyRequest, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';

import { OAuthClientAuth, RequireScope } from '../auth/decorators.js';
import { FORM_TYPE, TakesBody } from '../common/body-types.js';
import { badRequest } from '../common/errors.js';
import { RawResponse } from '../common/envelope.js';
import { canonicalBodyOf, JsonBodyAsText } from '../common/json-body.js';
import { TokenRequestDto } from './token-request.dto.js';
import { OAuthService, type ClientCredentials } from './oauth.service.js';
import { ApiBody, ApiTags } from '@nestjs/swagger';
import { ApiRoute } from '../openapi/route.decorators.js';

@ApiTags('Authentication')
@Controller('oauth')
export class OAuthController {
  constructor(private readonly oauth: OAuthService) {}

  /** docs/api-guide.md#oauth-client-credentials: client credentials in the form body, or HTTP Basic (RFC 6749 section 2.3.1). */
  @ApiRoute({
    summary: 'Get an access token',
    description:
      'OAuth 2.0 client credentials: the client authenticates with HTTP Basic or with client_id and client_secret in the form, and asks for scopes. Bad credentials or a scope the client was not granted give 401 with the error `Forbidden`.',
    data: 'OAuthToken',
    errors: [429],
  })
  @Post('token')
  @OAuthClientAuth()
  @TakesBody(FORM_TYPE)
  @HttpCode(200)
  token(
    @Body() body: TokenRequestDto,
    @Headers('authorization') authorization: string | undefined,
    @Ip() address: string,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    void reply.header('cache-control', 'no-store').header('pragma', 'no-cache');
    return this.oauth.issue(clientCredentials(body, authorization), body.scope, address);
  }

  /**
   * docs/api-guide.md#oauth-client-credentials: data equals the request body. Written from the raw text
   * (compact, keys in the order sent), since re-serialising a parsed object would move integer-like keys to
   * the front.
   */
  @ApiRoute({
    summary: 'Echo a signed request',
    description:
      'Answers the JSON it was sent, as `data`, compact and with its keys in the order sent (no body: `{}`): ' +
      'a way to check request signing and bearer tokens.',
    data: {
      type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
      items: {},
      description: 'The request body, as sent: any JSON value',
    },
  })
  @ApiBody({
    schema: {
      type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
      items: {},
      additionalProperties: true,
      description: 'Any JSON value, usually an object',
    },
  })
  @Post('test')
  @HttpCode(200)
  @RawResponse()
  @JsonBodyAsText()
  @RequireScope('BASE_MODULE:WRITE')
  test(@Req() request: RawBodyRequest<FastifyRequest>, @Res({ passthrough: true }) reply: FastifyReply) {
    const data = canonicalBodyOf(request);
    void reply.header('content-type', 'application/json; charset=utf-8');
    return `{"code":200,"data":${data},"error":null}`;
  }
}

function clientCredentials(body: TokenRequestDto, authorization: string | undefined): ClientCredentials {
  if (authorization?.startsWith('Basic ')) {
    const decoded = Buffer.from(authorization.slice('Basic '.length), 'base64').toString('utf8');
    const colon = decoded.indexOf(':');
    if (colon === -1) throw badRequest('HTTP Basic credentials must be client_id:client_secret');
    return {
      clientId: formDecode(decoded.slice(0, colon)),
      clientSecret: formDecode(decoded.slice(colon + 1)),
    };
  }
  if (!body.client_id) throw badRequest('client_id is required (form body or HTTP Basic)');
  if (!body.client_secret) throw badRequest('client_secret is required (form body or HTTP Basic)');
  return { clientId: body.client_id, clientSecret: body.client_secret };
}

/** RFC 6749 section 2.3.1: Basic credentials are form-urlencoded before base64. */
function formDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, ' '));
  } catch {
    throw badRequest('HTTP Basic credentials are not valid form-urlencoded text');
  }
}
