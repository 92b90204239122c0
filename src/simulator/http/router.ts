// Path matching for the simulator's routes: templates like /v1/msp/tenants/{tenantUid}, literal
// segments beating parameters (so /tenants/create is not a tenant UID), and the difference between a
// path nobody serves (404) and a path served for other methods (405).
type Segment = { literal: string } | { param: string };

interface CompiledRoute<T> {
  method: string;
  segments: Segment[];
  literals: number;
  value: T;
}

export type RouteMatch<T> =
  | { kind: 'found'; value: T; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allow: string[] }
  | { kind: 'not-found' }
  | { kind: 'bad-path' };

export class Router<T> {
  private readonly routes: CompiledRoute<T>[] = [];

  add(method: string, template: string, value: T): void {
    const segments: Segment[] = template
      .split('/')
      .filter((s) => s !== '')
      .map((s) => {
        const param = /^\{(\w+)\}$/.exec(s)?.[1];
        return param === undefined ? { literal: s } : { param };
      });
    this.routes.push({
      method: method.toUpperCase(),
      segments,
      literals: segments.filter((s) => 'literal' in s).length,
      value,
    });
    // Most literal segments first: the most specific template wins.
    this.routes.sort((a, b) => b.literals - a.literals);
  }

  match(method: string, pathname: string): RouteMatch<T> {
    let parts: string[];
    try {
      parts = pathname
        .split('/')
        .filter((s) => s !== '')
        .map((s) => decodeURIComponent(s));
    } catch {
      return { kind: 'bad-path' };
    }
    const allow = new Set<string>();
    for (const route of this.routes) {
      const params = matchSegments(route.segments, parts);
      if (params === undefined) continue;
      if (route.method === method.toUpperCase()) return { kind: 'found', value: route.value, params };
      allow.add(route.method);
    }
    return allow.size > 0 ? { kind: 'method-not-allowed', allow: [...allow].sort() } : { kind: 'not-found' };
  }
}

function matchSegments(segments: Segment[], parts: string[]): Record<string, string> | undefined {
  if (segments.length !== parts.length) return undefined;
  const params: Record<string, string> = {};
  for (let i = 0; i < segments.length; i += 1) {
    const segment = segments[i];
    const part = parts[i];
    if (segment === undefined || part === undefined) return undefined;
    if ('literal' in segment) {
      if (segment.literal !== part) return undefined;
    } else {
      params[segment.param] = part;
    }
  }
  return params;
}
