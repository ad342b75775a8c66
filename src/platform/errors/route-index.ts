import { Injectable, OnApplicationBootstrap, RequestMethod } from '@nestjs/common';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { DiscoveryService, MetadataScanner } from '@nestjs/core';

interface RouteEntry {
  path: string;
  pattern: RegExp;
  methods: Set<string>;
}

/**
 * Every route the application serves, read from the controllers' metadata, so that a
 * request that matched no handler can be told apart: an unknown path (404) or a known
 * path with the wrong method (405 with Allow).
 */
@Injectable()
export class RouteIndex implements OnApplicationBootstrap {
  private routes: RouteEntry[] = [];
  private byStaticness?: RouteEntry[];

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
  ) {}

  onApplicationBootstrap(): void {
    const byPath = new Map<string, Set<string>>();
    for (const wrapper of this.discovery.getControllers()) {
      const instance = wrapper.instance as object | undefined;
      if (!instance || !wrapper.metatype) continue;
      const prefixes = toArray(Reflect.getMetadata(PATH_METADATA, wrapper.metatype) as string | string[]);
      const proto = Object.getPrototypeOf(instance) as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(proto)) {
        const handler = proto[name] as object;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        if (path === undefined || method === undefined) continue;
        for (const prefix of prefixes) {
          for (const p of toArray(path)) {
            const full =
              '/' +
              [prefix, p]
                .map((s) => s.replace(/^\/+|\/+$/g, ''))
                .filter(Boolean)
                .join('/');
            const set = byPath.get(full) ?? new Set<string>();
            for (const m of methodNames(method)) set.add(m);
            byPath.set(full, set);
          }
        }
      }
    }
    this.byStaticness = undefined;
    this.routes = [...byPath].map(([path, methods]) => ({ path, pattern: toRegExp(path), methods }));
  }

  /** The template of the route a path is under (`/api/public/v1/companies/:country/:number`), or undefined. */
  templateOf(path: string): string | undefined {
    const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
    // A static route wins over one with a parameter at the same place (`/watches/bulk`, `/watches/:id`).
    this.byStaticness ??= [...this.routes].sort((a, b) => paramCount(a.path) - paramCount(b.path));
    return this.byStaticness.find((route) => route.pattern.test(clean))?.path;
  }

  /** The methods a path accepts, or undefined when no route has this path. */
  allowedMethods(path: string): string[] | undefined {
    const clean = path.split('?')[0].replace(/\/+$/, '') || '/';
    const methods = new Set<string>();
    for (const route of this.routes) if (route.pattern.test(clean)) route.methods.forEach((m) => methods.add(m));
    if (methods.size === 0) return undefined;
    if (methods.has('GET')) methods.add('HEAD');
    methods.add('OPTIONS');
    return [...methods].sort();
  }
}

function toArray<T>(v: T | T[] | undefined): T[] {
  if (v === undefined) return [''] as T[];
  return Array.isArray(v) ? v : [v];
}

function methodNames(method: RequestMethod): string[] {
  if (method === RequestMethod.ALL) return ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
  return [RequestMethod[method]];
}

function paramCount(path: string): number {
  return path.split('/').filter((seg) => seg.startsWith(':') || seg.startsWith('*')).length;
}

function toRegExp(path: string): RegExp {
  const source = path
    .split('/')
    .map((seg) =>
      seg.startsWith(':') ? '[^/]+' : seg.startsWith('*') ? '.*' : seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'),
    )
    .join('/');
  return new RegExp(`^${source}$`);
}
