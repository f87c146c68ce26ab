import type { Command } from 'commander';
import type { WorkflowDetail } from '../../../shared/service/model';
import { credits, table } from '../format';
import { withSession, type SessionNeeds } from '../session';
import { getWorkflowOrUsage } from '../workflow-lookup';

const CATALOG_ONLY: SessionNeeds = { withEngine: false };

/** `workflows [--tag T]`: the catalog, as a table or one JSON array. */
export function registerWorkflowsCommand(program: Command): void {
  program
    .command('workflows')
    .description('list the workflows the service offers')
    .option('--tag <tag>', 'only workflows carrying this tag')
    .action(async (flags: { tag?: string }, command: Command) =>
      withSession(command, async ({ call, out }) => {
        const { workflows, warning } = await call('workflows:list', flags.tag ? { tag: flags.tag } : {});
        // On stderr, so `--json` output stays one array: a partial catalog is never presented as complete.
        if (warning) out.notice(`batchroom: warning: ${warning}`);
        if (out.json) return out.record(workflows);
        if (workflows.length === 0) return out.result(flags.tag ? `No workflow is tagged "${flags.tag}".` : 'The service offers no workflows.');
        out.result(table(['ID', 'NAME', 'COST', 'TAGS'], workflows.map((w) => [w.id, w.name, credits(w.creditCost), w.tags.join(', ')])));
        out.line('\nDetails and fields: batchroom workflow <id>');
      }, CATALOG_ONLY),
    );
}

/** `workflow <id>`: the input schema in words, with an example `run` line. */
export function registerWorkflowCommand(program: Command): void {
  program
    .command('workflow')
    .description("show one workflow's fields (what --text, --switch and --image-field accept)")
    .argument('<id>', 'workflow id (see `batchroom workflows`)')
    .action(async (id: string, _flags: unknown, command: Command) =>
      withSession(command, async ({ call, out }) => {
        const workflow = await getWorkflowOrUsage(call, id);
        if (out.json) return out.record(workflow);
        out.result(describeWorkflow(workflow));
      }, CATALOG_ONLY),
    );
}

export function describeWorkflow(w: WorkflowDetail): string {
  const lines = [`${w.name} (${w.id}) — ${credits(w.creditCost)} per item`];
  if (w.description) lines.push(w.description);
  if (w.tags.length) lines.push(`Tags: ${w.tags.join(', ')}`);
  const { imageFields, textFields, switchFields } = w.inputSchema;
  lines.push('', 'Images:');
  for (const f of imageFields) lines.push(`  ${f.id}  ${f.label}${f.required ? ' (required)' : ' (optional)'}${f.description ? ` — ${f.description}` : ''}`);
  if (textFields.length) {
    lines.push('', 'Text (--text field=value):');
    for (const f of textFields) {
      const facts = [f.required ? 'required' : 'optional'];
      if (f.defaultValue !== undefined) facts.push(`default "${f.defaultValue}"`);
      if (f.maxLength) facts.push(`max ${f.maxLength} chars`);
      lines.push(`  ${f.id}  ${f.label} (${facts.join(', ')})${f.description ? ` — ${f.description}` : ''}`);
      if (f.presetOptions) lines.push(`      one of: ${f.presetOptions.map((o) => o.id).join(', ')}`);
    }
  }
  if (switchFields.length) {
    lines.push('', 'Switches (--switch field=a,b):');
    for (const f of switchFields) {
      lines.push(`  ${f.id}  ${f.label} (${f.multiple ? 'any of' : 'at most one of'}: ${f.options.map((o) => o.id).join(', ')})${f.description ? ` — ${f.description}` : ''}`);
    }
  }
  const example = [`batchroom run --workflow ${w.id}`];
  if (imageFields.length > 1) example.push(`--image-field ${imageFields[0]?.id}`);
  const text = textFields.find((f) => f.required) ?? textFields[0];
  if (text) example.push(`--text ${text.id}=${text.presetOptions?.[0]?.id ?? '"…"'}`);
  example.push('--out results/ photos/');
  lines.push('', `Example: ${example.join(' ')}`);
  return lines.join('\n');
}

// `balance` lives in its own file; main.ts registers it from here.
export { registerBalanceCommand } from './balance';
