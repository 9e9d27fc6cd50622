import { join } from 'node:path';

/** Where skills come from: the person's home, or the workspace (repository content). */
export type SkillScope = 'home' | 'workspace';

/** A folder whose subfolders are skills. */
export interface SkillRoot {
  readonly folder: string;
  readonly scope: SkillScope;
}

/**
 * The skill folders, in precedence order: the home's `skills/` first (the person's own skills are
 * never shadowed by a repository's), then the workspace's `.clawsmith/skills/` and
 * `.agents/skills/` (the folder other agents share).
 */
export function skillRoots(homeDir: string | undefined, workspaceRoot: string | undefined): SkillRoot[] {
  return [
    ...(homeDir !== undefined ? [{ folder: join(homeDir, 'skills'), scope: 'home' as const }] : []),
    ...(workspaceRoot !== undefined
      ? [
          { folder: join(workspaceRoot, '.clawsmith', 'skills'), scope: 'workspace' as const },
          { folder: join(workspaceRoot, '.agents', 'skills'), scope: 'workspace' as const },
        ]
      : []),
  ];
}
