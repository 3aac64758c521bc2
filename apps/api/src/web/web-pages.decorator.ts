// How a controller of a web area declares itself, once: outside the OpenAPI document and the envelope,
// past the organisation-credentials guard (the area's own session guard takes over), answering pages.
import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

import { AUTH_METADATA } from '../auth/decorators.js';
import { RawResponse } from '../common/envelope.js';
import { WebPageInterceptor } from './web-page.interceptor.js';
import { WEB_PAGES_METADATA } from './web-areas.js';

export const WebPages = () => applyDecorators(WebFiles(), UseInterceptors(WebPageInterceptor));

/**
 * A controller of a web area that answers files rather than pages (a KYC document in the console): the
 * same, but its handlers write the answer themselves (`@Res()`).
 */
export const WebFiles = () =>
  applyDecorators(
    SetMetadata(WEB_PAGES_METADATA, true),
    ApiExcludeController(),
    AUTH_METADATA.public(),
    RawResponse(),
  );
