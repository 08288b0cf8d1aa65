/**
 * Which of the processes a child started are still alive. The gateway knows each child it
 * spawned (it owns them); this answers what became of their descendants and process groups.
 * Linux's /proc is read directly (a child's `children` list, then theirs); elsewhere `ps` is asked.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';

export interface LiveProcess {
  pid: number;
  ppid: number;
  pgid: number;
}

interface ProcessStat extends LiveProcess {
  zombie: boolean;
}

const PROC_CHILDREN = existsSync(`/proc/${process.pid}/task/${process.pid}/children`);

/** `/proc/<pid>/stat`: the fields after the command name, which may itself hold spaces or ')'. */
async function readStat(pid: number): Promise<ProcessStat | undefined> {
  let text: string;
  try {
    text = await readFile(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return undefined;
  }
  const [state, ppid, pgid] = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return { pid, ppid: Number(ppid), pgid: Number(pgid), zombie: state === 'Z' || state === 'X' };
}

async function childrenOf(pid: number): Promise<number[]> {
  const tasks = await readdir(`/proc/${pid}/task`).catch(() => [] as string[]);
  const lists = await Promise.all(tasks.map((task) => readFile(`/proc/${pid}/task/${task}/children`, 'utf8').catch(() => '')));
  return lists
    .join(' ')
    .split(/\s+/)
    .filter(Boolean)
    .map(Number);
}

async function psTable(): Promise<ProcessStat[]> {
  const stdout = await new Promise<string>((resolve) =>
    execFile('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat='], { maxBuffer: 16 << 20 }, (error, out) => resolve(error ? '' : out)),
  );
  return stdout
    .split('\n')
    .map((line) => line.trim().split(/\s+/))
    .filter((fields) => fields.length >= 4 && Number(fields[0]) > 0)
    .map(([pid, ppid, pgid, state]) => ({ pid: Number(pid), ppid: Number(ppid), pgid: Number(pgid), zombie: state!.startsWith('Z') }));
}

/** `rootPid` and every live descendant (zombies left out); empty when `rootPid` is gone. */
export async function processTree(rootPid: number): Promise<LiveProcess[]> {
  if (!PROC_CHILDREN) {
    const table = await psTable();
    const byParent = new Map<number, ProcessStat[]>();
    for (const row of table) {
      const siblings = byParent.get(row.ppid);
      if (siblings) siblings.push(row);
      else byParent.set(row.ppid, [row]);
    }
    const root = table.find((row) => row.pid === rootPid);
    if (!root || root.zombie) return [];
    const found: LiveProcess[] = [];
    const stack = [root];
    while (stack.length) {
      const row = stack.pop()!;
      if (!row.zombie) found.push({ pid: row.pid, ppid: row.ppid, pgid: row.pgid });
      stack.push(...(byParent.get(row.pid) ?? []));
    }
    return found;
  }
  const found: LiveProcess[] = [];
  let level = [rootPid];
  const seen = new Set<number>();
  while (level.length) {
    const stats = await Promise.all(level.filter((pid) => !seen.has(pid)).map(readStat));
    const live = stats.filter((stat): stat is ProcessStat => stat !== undefined && !stat.zombie);
    for (const stat of live) {
      seen.add(stat.pid);
      found.push({ pid: stat.pid, ppid: stat.ppid, pgid: stat.pgid });
    }
    level = (await Promise.all(live.map((stat) => childrenOf(stat.pid)))).flat();
  }
  return found;
}

/** The live (non-zombie) members of process group `pgid`. */
export async function groupMembers(pgid: number): Promise<number[]> {
  // Cheap answer first: a group nobody is in cannot be signalled at all.
  try {
    process.kill(-pgid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ESRCH') return [];
  }
  if (!PROC_CHILDREN) return (await psTable()).filter((row) => row.pgid === pgid && !row.zombie).map((row) => row.pid);
  const pids = (await readdir('/proc').catch(() => [] as string[])).filter((name) => /^\d+$/.test(name)).map(Number);
  const stats = await Promise.all(pids.map(readStat));
  return stats.filter((stat) => stat !== undefined && stat.pgid === pgid && !stat.zombie).map((stat) => stat!.pid);
}

/** Process groups under `rootPid` other than its own, each with its live members. */
export function groupsOf(tree: readonly LiveProcess[], rootPid: number): { pgid: number; pids: number[] }[] {
  const ownGroup = tree.find((process) => process.pid === rootPid)?.pgid ?? rootPid;
  const groups = new Map<number, number[]>();
  for (const process of tree) {
    if (process.pid === rootPid || process.pgid === ownGroup) continue;
    const members = groups.get(process.pgid);
    if (members) members.push(process.pid);
    else groups.set(process.pgid, [process.pid]);
  }
  return [...groups].map(([pgid, members]) => ({ pgid, pids: members.sort((a, b) => a - b) }));
}
