/**
 * The project's import graph, read with dpdm (it parses TypeScript with its own compiler copy, type-only
 * imports included, so a cycle made only of `import type` counts too): the edges, the cycles, and two
 * measures of how one-way the graph runs (docs/design.md "Imports run one way").
 *
 *   npx tsx scripts/import-graph.ts [glob …]     # default: every source folder; prints the measures
 */

import path from 'node:path';
import { parseCircular, parseDependencyTree } from 'dpdm';

export const SOURCE_GLOBS = [
  'mock/**/*.ts',
  'specs/**/*.ts',
  'cli/**/*.ts',
  'tests/**/*.ts',
  'bench/**/*.ts',
  'scripts/**/*.ts',
  'shared/**/*.ts',
  'playwright.config.ts',
];

/** Importing file → imported project files (paths relative to `root`, node_modules left out). */
export type ImportGraph = ReadonlyMap<string, readonly string[]>;

export async function readImportGraph(globs: readonly string[], root = process.cwd()): Promise<ImportGraph> {
  const tree = await parseDependencyTree([...globs], {
    context: root,
    cwd: root,
    transform: false,
    skipDynamicImports: false,
  });
  const graph = new Map<string, string[]>();
  for (const [file, deps] of Object.entries(tree)) {
    if (file.includes('node_modules') || file.startsWith('node:')) continue;
    const targets = (deps ?? [])
      .map((dep) => dep.id)
      // Project files only: not node_modules, not Node's built-ins (`node:fs`).
      .filter((id): id is string => id !== null && !id.includes('node_modules') && !id.startsWith('node:'));
    graph.set(rel(root, file), [...new Set(targets.map((id) => rel(root, id)))]);
  }
  return graph;
}

/** The project files among `globs` that import the npm package `name` (or a file inside it). */
export async function importersOf(
  name: string,
  globs: readonly string[],
  root = process.cwd(),
): Promise<string[]> {
  const tree = await parseDependencyTree([...globs], { context: root, cwd: root, transform: false });
  const inside = `node_modules/${name}/`;
  return Object.entries(tree)
    .filter(
      ([file, deps]) =>
        !file.includes('node_modules') && (deps ?? []).some((dep) => dep.id?.includes(inside)),
    )
    .map(([file]) => rel(root, file))
    .sort();
}

/** Every import cycle, each as the files along it. */
export async function findCycles(globs: readonly string[], root = process.cwd()): Promise<string[][]> {
  const tree = await parseDependencyTree([...globs], { context: root, cwd: root, transform: false });
  return parseCircular(tree).map((cycle) => cycle.map((file) => rel(root, file)));
}

/** Floors: the files on the longest import chain (cycles cut where they close), top first. */
export function longestChain(graph: ImportGraph): string[] {
  const chain = new Map<string, string[]>();
  const visiting = new Set<string>();
  const visit = (file: string): string[] => {
    const known = chain.get(file);
    if (known !== undefined) return known;
    if (visiting.has(file)) return [];
    visiting.add(file);
    let deepest: string[] = [];
    for (const next of graph.get(file) ?? []) {
      const below = visit(next);
      if (below.length > deepest.length) deepest = below;
    }
    visiting.delete(file);
    const mine = [file, ...deepest];
    chain.set(file, mine);
    return mine;
  };
  let longest: string[] = [];
  for (const file of graph.keys()) {
    const found = visit(file);
    if (found.length > longest.length) longest = found;
  }
  return longest;
}

/**
 * Upward imports: file imports whose folders import each other (directly or around a loop), so neither
 * folder sits below the other. Zero means the folders form one-way floors.
 */
export function upwardImports(graph: ImportGraph): Array<[string, string]> {
  // A file at the top of a half (mock/app.ts) is a floor of its own; deeper files go with their folder.
  const folderOf = (file: string) => (file.split('/').length <= 2 ? file : path.dirname(file));
  const folders = new Map<string, Set<string>>();
  for (const [file, targets] of graph) {
    const from = folderOf(file);
    for (const target of targets) {
      const to = folderOf(target);
      if (to === from) continue;
      if (!folders.has(from)) folders.set(from, new Set());
      folders.get(from)?.add(to);
    }
  }
  const reaches = (from: string, to: string): boolean => {
    const seen = new Set<string>();
    const stack = [from];
    while (stack.length > 0) {
      const at = stack.pop() as string;
      if (at === to) return true;
      if (seen.has(at)) continue;
      seen.add(at);
      stack.push(...(folders.get(at) ?? []));
    }
    return false;
  };
  const upward: Array<[string, string]> = [];
  for (const [file, targets] of graph)
    for (const target of targets) {
      const from = folderOf(file);
      const to = folderOf(target);
      if (from !== to && reaches(to, from)) upward.push([file, target]);
    }
  return upward;
}

function rel(root: string, file: string): string {
  return path.relative(root, path.resolve(root, file)).split(path.sep).join('/');
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const globs = process.argv.length > 2 ? process.argv.slice(2) : SOURCE_GLOBS;
  const graph = await readImportGraph(globs);
  const cycles = await findCycles(globs);
  const upward = upwardImports(graph);
  const edges = [...graph.values()].reduce((sum, targets) => sum + targets.length, 0);
  const chain = longestChain(graph);
  console.log(`files ${graph.size}, imports ${edges}, floors ${chain.length}: ${chain.join(' → ')}`);
  console.log(`upward imports ${upward.length}`);
  for (const [from, to] of upward) console.log(`  ${from} → ${to}`);
  console.log(`cycles ${cycles.length}`);
  for (const cycle of cycles) console.log(`  ${cycle.join(' → ')}`);
}
