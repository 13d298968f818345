/** Originals stored in aizk_content. */

export const PUT_CONTENT = 'SELECT aizk_store_content($1) AS id'

export const READ_CONTENT = 'SELECT aizk_read_content($1, $2::uuid[]) AS bytes'
