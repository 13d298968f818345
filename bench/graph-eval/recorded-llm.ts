/**
 * A local stand-in for an OpenAI-compatible chat endpoint that replays recorded extraction
 * answers (test/fixtures/graph-eval/llm-answers.json): the answer recorded for the passage
 * whose text the request's last message carries, or 404 for any other text. Port 0, loopback.
 */
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export async function startRecordedLlm(answers: Map<string, unknown>): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) => {
    const body: Buffer[] = []
    req.on('data', (b: Buffer) => body.push(b))
    req.on('end', () => {
      const request = JSON.parse(Buffer.concat(body).toString()) as { model: string; messages: { content: string }[] }
      const answer = answers.get(request.messages.at(-1)?.content ?? '')
      res.setHeader('content-type', 'application/json')
      if (answer === undefined) {
        res.statusCode = 404
        res.end(JSON.stringify({ error: { message: 'no recorded answer for this text' } }))
        return
      }
      const content = JSON.stringify(answer)
      res.end(
        JSON.stringify({
          object: 'chat.completion',
          model: request.model,
          choices: [{ index: 0, message: { role: 'assistant', content }, finish_reason: 'stop' }],
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }
}
