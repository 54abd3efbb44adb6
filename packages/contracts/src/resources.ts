import { z } from 'zod';
import './errors.ts'; // extends zod with .openapi()

const utcDay = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/)
  .openapi({ example: '2026-11-20', format: 'date' });

export const responseSchema = z
  .object({
    id: z.uuid(),
    promptId: z.uuid(),
    prompt: z.string(),
    model: z.string().openapi({ description: 'AI platform identifier; also the value of the model filter.' }),
    date: utcDay,
    mentioned: z.boolean(),
    matchedTerm: z.string().nullable(),
    position: z.number().int().nullable(),
    sentiment: z.number().nullable(),
    excerpt: z.string().max(300),
    sourceUrls: z.array(z.string()),
    property: z.object({ id: z.uuid(), name: z.string() }),
  })
  .openapi('Response');

export const responseDetailSchema = responseSchema
  .extend({ text: z.string().openapi({ description: 'The complete answer as markdown.' }) })
  .openapi('ResponseDetail');

export const taskSchema = z
  .object({
    id: z.uuid(),
    title: z.string(),
    description: z.string(),
    status: z.enum(['backlog', 'todo', 'in_progress', 'done', 'canceled']),
    priority: z.enum(['urgent', 'high', 'medium', 'low']).nullable(),
    labels: z.array(z.object({ id: z.uuid(), name: z.string(), color: z.string().nullable() })),
    dueDate: utcDay.nullable(),
    assignee: z.object({ id: z.uuid(), name: z.string() }).nullable(),
    propertyId: z.uuid(),
    planId: z.uuid().nullable(),
    createdAt: z.iso.datetime(),
    updatedAt: z.iso.datetime(),
  })
  .openapi('Task');
