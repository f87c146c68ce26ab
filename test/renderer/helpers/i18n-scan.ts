import ts from 'typescript';

// Finds user-visible text written straight into renderer code instead of coming from a catalog (docs/i18n.md).
// Syntax-based, on TypeScript's own parser: JSX text; string and template literals that can end up as a child, as a
// user-facing prop (title, aria-label, placeholder, alt, label) or as a user-facing field of an object literal; and
// the message passed to the store's notify(). A literal given to any other call (a t() key, a class name, a
// comparison) is not text and is not looked at.

/** Props and object fields whose string is read by a person. */
const TEXT_PROPS = new Set(['title', 'aria-label', 'aria-description', 'placeholder', 'alt', 'label', 'aria-valuetext']);
const TEXT_FIELDS = new Set([...TEXT_PROPS, 'text', 'message', 'description', 'hint', 'heading', 'summary']);
/** Calls whose second argument is a notice shown to the user. */
const NOTICE_CALLS = new Set(['notify']);

/** Words that are the same in every language: product and format names, units. */
export const NOT_TRANSLATED = ['Batchroom', 'JPEG', 'PNG', 'TIFF', 'WebP', 'HEIC', 'AVIF', 'RAW', 'XMP', 'JSON', 'CSV', 'sRGB', 'px', 'sk_live_', 'sk_test_'];

const NOT_TRANSLATED_RE = new RegExp(`\\b(?:${NOT_TRANSLATED.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})`, 'g');

/** Whether a piece of text has words in it (two letters in a row) once the untranslated names are taken out. */
export function hasWords(text: string): boolean {
  return /\p{L}{2,}/u.test(text.replace(NOT_TRANSLATED_RE, ' '));
}

export interface Finding {
  file: string;
  line: number;
  text: string;
}

/** The literal pieces of an expression that can become text as they are (through ?:, &&, ||, ??, +, templates). */
function textPieces(node: ts.Expression, out: ts.Node[]): void {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) out.push(node);
  else if (ts.isTemplateExpression(node)) {
    out.push(node.head, ...node.templateSpans.map((s) => s.literal));
    for (const span of node.templateSpans) textPieces(span.expression, out);
  } else if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node)) textPieces(node.expression, out);
  else if (ts.isConditionalExpression(node)) { textPieces(node.whenTrue, out); textPieces(node.whenFalse, out); }
  else if (ts.isBinaryExpression(node)) {
    const op = node.operatorToken.kind;
    if (op === ts.SyntaxKind.PlusToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) {
      textPieces(node.left, out); textPieces(node.right, out);
    } else if (op === ts.SyntaxKind.AmpersandAmpersandToken) textPieces(node.right, out);
  }
}

function literalText(node: ts.Node): string {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)) return node.text;
  if (ts.isJsxText(node)) return node.text;
  return node.getText();
}

function nameOf(name: ts.Node): string {
  if (ts.isIdentifier(name) || ts.isStringLiteral(name)) return name.text;
  if (ts.isJsxNamespacedName(name)) return `${name.namespace.text}:${name.name.text}`;
  return '';
}

/** Every hard-coded user-visible text in one source file. */
export function scanSource(file: string, source: string): Finding[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const lines = source.split('\n');
  // `i18n-ignore` in a comment on the line or the line above exempts that line (say why in the comment).
  const ignored = (line: number) => /i18n-ignore/.test(lines[line - 1] ?? '') || /i18n-ignore/.test(lines[line - 2] ?? '');
  const findings: Finding[] = [];
  const report = (node: ts.Node) => {
    const raw = literalText(node);
    const text = raw.trim();
    if (!hasWords(text)) return;
    // JSX text starts with the line break before it: count from its first visible character.
    const start = node.getStart(sf) + (ts.isJsxText(node) ? raw.length - raw.trimStart().length : 0);
    const line = sf.getLineAndCharacterOfPosition(start).line + 1;
    if (!ignored(line)) findings.push({ file, line, text: text.replace(/\s+/g, ' ') });
  };
  const reportExpression = (expr: ts.Expression | undefined) => {
    if (!expr) return;
    const pieces: ts.Node[] = [];
    textPieces(expr, pieces);
    pieces.forEach(report);
  };
  const visit = (node: ts.Node): void => {
    if (ts.isJsxText(node)) report(node);
    else if (ts.isJsxExpression(node) && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) reportExpression(node.expression);
    else if (ts.isJsxAttribute(node) && TEXT_PROPS.has(nameOf(node.name)) && node.initializer) {
      if (ts.isStringLiteral(node.initializer)) report(node.initializer);
      else if (ts.isJsxExpression(node.initializer)) reportExpression(node.initializer.expression);
    } else if (ts.isPropertyAssignment(node) && TEXT_FIELDS.has(nameOf(node.name))) reportExpression(node.initializer);
    else if (ts.isCallExpression(node)) {
      const callee = node.expression;
      const name = ts.isIdentifier(callee) ? callee.text : ts.isPropertyAccessExpression(callee) ? callee.name.text : '';
      if (NOTICE_CALLS.has(name)) reportExpression(node.arguments[1]);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return findings;
}
