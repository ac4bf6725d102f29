import 'server-only'
import { NO_SUCH_FUNCTION, supabaseClient } from '@/lib/waitlist/supabase-client'
import { parseSchemaReport, SCHEMA_CHECK_FUNCTION } from '@/lib/waitlist/schema-check'
import { knownReport, type SchemaState } from './check'
import { ReadError } from './reader'
import { refusal, REQUEST_TIMEOUT_MS } from './supabase-service'

/**
 * What a Supabase project says of its schema, in one call with the service
 * key. A project without the check function cannot say more: that is an
 * answer (its migration is not applied), not a failure.
 */
export async function supabaseSchemaState(url: string, serviceKey: string): Promise<SchemaState> {
  const where = `Supabase at ${new URL(url).host}`
  const result = await supabaseClient(url, serviceKey)
    .rpc(SCHEMA_CHECK_FUNCTION)
    .abortSignal(AbortSignal.timeout(REQUEST_TIMEOUT_MS))
  if (result.error?.code === NO_SUCH_FUNCTION) {
    return { where, kind: 'supabase', applied: undefined, limits: undefined }
  }
  const message = refusal(result, 'check the schema')
  if (message) throw new ReadError(message)
  const report = knownReport(parseSchemaReport(result.data), where)
  return { where, kind: 'supabase', applied: report.appliedMigrations, limits: report }
}
