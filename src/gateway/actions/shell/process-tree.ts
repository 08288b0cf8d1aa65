import { execFile } from 'node:child_process';

interface ProcessRow {
  pid: number;
  pgid: number;
  ppid: number;
}

async function processTable(): Promise<ProcessRow[]> {
  const stdout = await new Promise<string>((resolve) => {
    execFile('ps', ['-A', '-o', 'pid=,pgid=,ppid='], { maxBuffer: 16 << 20 }, (error, out) =>
      resolve(error ? '' : out),
    );
  });
  const rows: ProcessRow[] = [];
  for (const line of stdout.split('\n')) {
    const [pid, pgid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid && pgid !== undefined && ppid !== undefined && !Number.isNaN(pgid) && !Number.isNaN(ppid)) {
      rows.push({ pid, pgid, ppid });
    }
  }
  return rows;
}

/**
 * The process groups of every descendant of `rootPid`, except `rootPid`'s own group. Under job
 * control each command a shell runs gets a group of its own, so these are the command's
 * processes (and any background jobs) without the shell itself.
 */
export async function descendantGroups(rootPid: number): Promise<Set<number>> {
  const table = await processTable();
  const children = new Map<number, ProcessRow[]>();
  for (const row of table) {
    const siblings = children.get(row.ppid);
    if (siblings) siblings.push(row);
    else children.set(row.ppid, [row]);
  }
  const ownGroup = table.find((row) => row.pid === rootPid)?.pgid ?? rootPid;
  const groups = new Set<number>();
  const seen = new Set<number>([rootPid]);
  const stack = [rootPid];
  while (stack.length > 0) {
    for (const child of children.get(stack.pop()!) ?? []) {
      if (seen.has(child.pid)) continue;
      seen.add(child.pid);
      stack.push(child.pid);
      if (child.pgid > 0 && child.pgid !== ownGroup) groups.add(child.pgid);
    }
  }
  return groups;
}

/** Signals a whole process group; a group that is already gone is not an error. */
export function signalGroup(pgid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pgid, signal);
  } catch {
    // ESRCH: nothing left to signal. EPERM: not ours to signal.
  }
}
