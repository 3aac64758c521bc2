// Cursor pagination: `await client.users.list()` is one page; `for await (const user of
// client.users.list())` walks every item of every page, fetching the next page when it gets there.
import type { Page, PageParams } from './types.js';

/** A page request that is also an async iterator over every item from that page on. */
export class PageRequest<T> implements PromiseLike<Page<T>>, AsyncIterable<T> {
  private first: Promise<Page<T>> | undefined;

  constructor(
    private readonly fetchPage: (params: PageParams) => Promise<Page<T>>,
    private readonly params: PageParams,
  ) {}

  /** The first page; fetched once, however often it is awaited. */
  then<R1 = Page<T>, R2 = never>(
    onFulfilled?: ((page: Page<T>) => R1 | PromiseLike<R1>) | null,
    onRejected?: ((reason: unknown) => R2 | PromiseLike<R2>) | null,
  ): Promise<R1 | R2> {
    this.first ??= this.fetchPage(this.params);
    return this.first.then(onFulfilled, onRejected);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<T> {
    for await (const page of this.pages()) yield* page.items;
  }

  /** Every page from this one on. */
  async *pages(): AsyncGenerator<Page<T>, void, undefined> {
    let page: Page<T> = await this.then((first) => first);
    yield page;
    while (page.nextCursor !== null) {
      page = await this.fetchPage({ ...this.params, cursor: page.nextCursor });
      yield page;
    }
  }

  /** Every item from this page on, in one array (mind the size of what you list). */
  async toArray(): Promise<T[]> {
    const items: T[] = [];
    for await (const item of this) items.push(item);
    return items;
  }
}
