// How a controller of a web area declares itself, once: outside the OpenAPI document and the envelope,
// answering pages. Who may open each page its routes declare as any route does (auth/decorators.ts): a
// console page's @RequireRole takes the console session, a dashboard page's @DashboardRead the dashboard's,
// and @Public() a page that needs none (the sign-in pages).
import { applyDecorators, SetMetadata, UseInterceptors } from '@nestjs/common';
import { ApiExcludeController } from '@nestjs/swagger';

import { WEB_PAGES_METADATA } from '../auth/decorators.js';
import { RawResponse } from '../common/envelope.js';
import { WebPageInterceptor } from './web-page.interceptor.js';

export const WebPages = () => applyDecorators(WebFiles(), UseInterceptors(WebPageInterceptor));

/**
 * A controller of a web area that answers files rather than pages (a KYC document in the console): the
 * same, but its handlers write the answer themselves (`@Res()`).
 */
export const WebFiles = () =>
  applyDecorators(SetMetadata(WEB_PAGES_METADATA, true), ApiExcludeController(), RawResponse());
