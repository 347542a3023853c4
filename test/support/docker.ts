/** Whether testcontainers can reach a container runtime; the reason when it cannot. */
export async function containerRuntime(): Promise<{ available: true } | { available: false; reason: string }> {
  try {
    const { getContainerRuntimeClient } = await import('testcontainers');
    await getContainerRuntimeClient();
    return { available: true };
  } catch (error) {
    return { available: false, reason: `no container runtime for testcontainers (${(error as Error).message.split('\n')[0]})` };
  }
}
