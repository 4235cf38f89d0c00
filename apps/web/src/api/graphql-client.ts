/** A tiny GraphQL client over fetch: the UI reads and writes through /graphql only. */

export class GraphqlError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    readonly field: string | undefined,
  ) {
    super(message);
  }
  get notFound(): boolean {
    return this.code === 'NOT_FOUND';
  }
}

interface GraphqlResponse<T> {
  data?: T | null;
  errors?: { message: string; extensions?: { code?: string; field?: string } }[];
}

export async function graphql<T>(query: string, variables: Record<string, unknown> = {}, token?: string | null): Promise<T> {
  let res: Response;
  try {
    res = await fetch('/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify({ query, variables }),
    });
  } catch {
    throw new GraphqlError('The server cannot be reached. Check your connection and try again.', 'NETWORK', undefined);
  }
  let body: GraphqlResponse<T>;
  try {
    body = (await res.json()) as GraphqlResponse<T>;
  } catch {
    throw new GraphqlError(`The server answered HTTP ${res.status} without a GraphQL response.`, 'HTTP', undefined);
  }
  const first = body.errors?.[0];
  if (first) throw new GraphqlError(first.message, first.extensions?.code, first.extensions?.field);
  if (!body.data) throw new GraphqlError(`The server answered HTTP ${res.status} without data.`, 'HTTP', undefined);
  return body.data;
}
