import { describeReadmeExample } from '@clawsmith/test-utils';

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/read-a-skill.ts',
  prints: [
    'problem skill_invalid at line 2',
    '- release-notes: Write release notes from merged changes. Use before a release.',
    'Skill release-notes (home), file SKILL.md',
    'refused: skill_not_found No skill is named "release-note". Did you mean release-notes?',
  ],
});

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/search-memory.ts',
  prints: ['memory/ops/deploy.md:4', 'Roll back with make rollback.', 'refused: memory_query_empty'],
});

describeReadmeExample({
  testFolder: import.meta.dirname,
  example: 'examples/load-a-plugin.ts',
  prints: ['plugin:acme-tools acme_greet read', 'success Hello, Ada!', '0 changed plugin_changed'],
});
