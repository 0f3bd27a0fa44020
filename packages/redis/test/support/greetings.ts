/** What a cluster test's client needs to call a tool (SDK 1.x and client 2.x alike). */
interface ToolCaller {
  callTool(request: { name: string; arguments: Record<string, unknown> }): Promise<unknown>;
}

/**
 * Calls the fixture's `greet` tool (it asks for a name, then answers) three times and answers
 * the greetings without the node that gave them (", from a"), so round-robin order is ignored.
 */
export async function greetThrice(client: ToolCaller): Promise<string[]> {
  const greetings: string[] = [];
  for (let i = 0; i < 3; i++) {
    const result = (await client.callTool({ name: 'greet', arguments: {} })) as {
      content: { text: string }[];
    };
    greetings.push(result.content[0].text.replace(/, from [abc]$/, ''));
  }
  return greetings;
}
