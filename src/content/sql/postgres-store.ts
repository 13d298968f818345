/** Originals stored in aizk_content. */

export const PUT_CONTENT = 'SELECT aizk_store_content($1) AS id'

export const READ_CONTENT = 'SELECT bytes FROM aizk_content WHERE content_id = $1'
