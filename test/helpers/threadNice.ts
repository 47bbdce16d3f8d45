import { readFileSync } from 'node:fs';

/**
 * The nice value of thread `tid` of this process as the kernel has it (field 19 of
 * /proc/self/task/<tid>/stat, counted after the command name, which may hold spaces). Linux only.
 */
export function threadNice(tid: number): number {
  const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
}
