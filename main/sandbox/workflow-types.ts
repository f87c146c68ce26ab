import type { AspectMode, OutputSpec } from './imaging/output-size';
import type { EncodedResult, Raster } from './imaging/raster';

// The sandbox's catalog model. The wire form (wire.ts) is derived from it, so the schema a client reads is the
// schema the validator enforces.

export interface FieldOption {
  id: string;
  label: string;
}

export interface ImageField {
  id: string;
  label: string;
  description: string;
  required: boolean;
}

export interface TextField {
  id: string;
  label: string;
  description: string;
  required: boolean;
  /** When present, the value sent must be one of these option ids. */
  presetOptions?: FieldOption[];
  /** Used when the field is optional and absent. */
  defaultValue?: string;
  /** Free-text fields only. */
  maxLength?: number;
}

export interface SwitchField {
  id: string;
  label: string;
  description: string;
  options: FieldOption[];
  minSelections: number;
  maxSelections: number;
  /** Used when the field is absent from switchSelections. */
  defaultSelection: string[];
}

export interface InputSchema {
  imageFields: ImageField[];
  textFields: TextField[];
  switchFields: SwitchField[];
}

/** Validated input with defaults filled in: every declared text/switch field has a value. */
export interface WorkflowRunInput {
  images: Record<string, Raster>;
  texts: Record<string, string>;
  switches: Record<string, string[]>;
  output: OutputSpec;
}

export interface WorkflowDefinition {
  id: string;
  name: string;
  description: string;
  tags: string[];
  creditCost: number;
  /** How globalOverrides.aspectRatio changes the shape: crop to fill, or pad to fit. */
  aspectMode: AspectMode;
  /** Human description of how many results an execution yields. */
  results: string;
  inputSchema: InputSchema;
  run(input: WorkflowRunInput): Promise<WorkflowResult[]>;
}

/** One result of an execution; a workflow with several results labels each (a look's name), as services do. */
export type WorkflowResult = EncodedResult & { label?: string };
