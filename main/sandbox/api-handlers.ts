import type { IncomingMessage } from 'node:http';
import { SandboxError } from './errors';
import { readJsonBody, type JsonReply } from './http-io';
import { resolveImage } from './inputs';
import type { Raster } from './imaging/raster';
import type { SandboxCore } from './core';
import { validateExecuteRequest } from './validate';
import { balanceView, executeAccepted, executionView, workflowDetail, workflowSummary } from './wire';
import { findWorkflow, WORKFLOWS } from './workflows';

// The five v1 endpoints. Each receives an authenticated key; ownership checks make another key's execution a 404
// (not 403) so ids cannot be probed.

export interface ApiCall {
  req: IncomingMessage;
  query: URLSearchParams;
  key: string;
  params: string[];
}

export type ApiHandler = (core: SandboxCore, call: ApiCall) => Promise<JsonReply>;

export const listWorkflows: ApiHandler = async (_core, { query }) => {
  const tag = query.get('tag');
  const workflows = WORKFLOWS.filter((workflow) => !tag || workflow.tags.includes(tag)).map(workflowSummary);
  return { status: 200, body: { workflows } };
};

function workflowOr404(id: string) {
  const workflow = findWorkflow(id);
  if (!workflow) throw new SandboxError(404, 'workflow_not_found', `no workflow with id "${id}"`, { workflowId: id });
  return workflow;
}

export const getWorkflow: ApiHandler = async (_core, { params }) => ({ status: 200, body: workflowDetail(workflowOr404(params[0]!)) });

export const executeWorkflow: ApiHandler = async (core, { req, key, params }) => {
  const workflow = workflowOr404(params[0]!);
  const limits = core.limits();
  const request = validateExecuteRequest(await readJsonBody(req, limits.maxBodyBytes), workflow, limits);
  // Cheap refusals first, so nobody waits for image downloads only to hear about their balance.
  core.accounts.assertCanPay(key, workflow.creditCost);
  core.accounts.reserveSlot(key);
  let images: Record<string, Raster>;
  try {
    const entries = await Promise.all(
      Object.entries(request.images).map(async ([id, value]) => [id, await resolveImage(`images.${id}`, value, limits, core.results, core.reuse)] as const),
    );
    images = Object.fromEntries(entries);
    for (const value of Object.values(request.images)) core.stats.imageInput(value.startsWith('data:') ? 'uploads' : 'urls');
    core.accounts.charge(key, workflow.creditCost); // re-checks the balance after the asynchronous gap
  } catch (error) {
    core.accounts.release(key);
    throw error;
  }
  const willFail = core.faults.roll('executionFailure', 'execute', core.faults.current.executionFailureRate);
  if (willFail) core.stats.fault('executionFailure');
  const record = core.executions.create(key, workflow, { images, texts: request.texts, switches: request.switches, output: request.output }, willFail, request);
  return { status: 202, body: executeAccepted(record) };
};

export const getExecution: ApiHandler = async (core, { key, params }) => {
  const id = params[0]!;
  const record = core.executions.find(key, id);
  if (!record) throw new SandboxError(404, 'execution_not_found', `no execution with id "${id}"`, { executionId: id });
  return { status: 200, body: executionView(record, core.executions) };
};

export const getBalance: ApiHandler = async (core, { key }) => ({ status: 200, body: balanceView(core.accounts.apiCredits(key), core.accounts.get(key)) });
