// The docs hold together: every relative link of README.md and docs/ leads to a file of the repository,
// and a link with an #anchor to a heading of that file (GitHub's anchors); the docs pages that src/ names
// in its comments exist.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { describe, expect, it } from 'vitest';
import { anchors, docFiles, links, ROOT, readDoc, slug } from './markdown.js';

const files = docFiles();

/** A link's target as a path from the root, and its anchor; undefined for links that leave the repository. */
function resolveLink(file: string, target: string): { path: string; anchor: string | undefined } | undefined {
  if (/^[a-z][a-z0-9+.-]*:/i.test(target)) return undefined;
  const [path = '', anchor] = target.split('#', 2);
  const decoded = decodeURIComponent(path);
  return { path: decoded === '' ? file : normalize(join(dirname(file), decoded)), anchor };
}

function brokenLinks(file: string): string[] {
  const broken: string[] = [];
  for (const { target, line } of links(readDoc(file))) {
    const link = resolveLink(file, target);
    if (!link) continue;
    const where = `${file}:${line} → ${target}`;
    if (link.path.startsWith('..') || !existsSync(join(ROOT, link.path))) {
      broken.push(`${where}: no such file`);
      continue;
    }
    if (link.anchor === undefined) continue;
    if (!link.path.endsWith('.md') || statSync(join(ROOT, link.path)).isDirectory()) {
      broken.push(`${where}: an anchor into a file that has no headings`);
      continue;
    }
    if (!anchors(readDoc(link.path)).has(link.anchor)) broken.push(`${where}: no heading with that anchor`);
  }
  return broken;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') ? [path] : [];
  });
}

describe('links of the docs', () => {
  it('reads the docs: README.md and pages for each audience', () => {
    for (const audience of ['using', 'operating', 'developing'])
      expect(files.filter((file) => file.startsWith(`docs/${audience}/`)).length).toBeGreaterThan(3);
  });

  it.each(files)('%s: every relative link leads to a file, and its anchor to a heading', (file) => {
    expect(brokenLinks(file)).toEqual([]);
  });

  it('links every page of docs/ from the README', () => {
    const fromReadme = new Set(
      links(readDoc('README.md')).flatMap(({ target }) => resolveLink('README.md', target)?.path ?? []),
    );
    expect(files.filter((file) => file.startsWith('docs/') && !fromReadme.has(file))).toEqual([]);
  });

  it('names only docs pages that exist, wherever src/ names one', () => {
    const missing = sourceFiles('src').flatMap((file) =>
      [...readFileSync(join(ROOT, file), 'utf8').matchAll(/docs\/[\w./-]+\.md/g)]
        .map((match) => match[0])
        .filter((page) => !existsSync(join(ROOT, page)))
        .map((page) => `${file} → ${page}`),
    );
    expect(missing).toEqual([]);
  });
});

describe('the link checker', () => {
  it('makes anchors as GitHub does', () => {
    expect(slug('The /fw language')).toBe('the-fw-language');
    expect(slug("The MSP's upgrade day: Secure Client across tenants")).toBe(
      'the-msps-upgrade-day-secure-client-across-tenants',
    );
    expect(slug('Profiles and policy file (`FWBOT_PROFILES`)')).toBe(
      'profiles-and-policy-file-fwbot_profiles',
    );
    expect(slug('Redis high availability: Sentinel and Cluster')).toBe(
      'redis-high-availability-sentinel-and-cluster',
    );
    expect([...anchors('# A\n\n## Notes\n\n```\n# not a heading\n```\n\n## Notes\n')]).toEqual([
      'a',
      'notes',
      'notes-1',
    ]);
  });

  it('finds links that wrap, and none in code', () => {
    const text = 'See [the\nrunbook](runbook.md#redis) and `[no](x.md)`.\n\n```\n[no](y.md)\n```\n';
    expect(links(text)).toEqual([{ target: 'runbook.md#redis', line: 1 }]);
  });
});
