import { ExecutionAlreadyExists, ExecutionDoesNotExist, SFNClient, StartExecutionCommand, StopExecutionCommand } from '@aws-sdk/client-sfn';
import type { LifecycleInput } from '../../contract/stream-lifecycle';
import type { StreamRun, StreamRunner } from '../../core/streams/ports';

/** Runs stream lifecycles on Step Functions. Execution names are the run's, so starting twice is harmless. */
export class StepFunctionsStreamRunner implements StreamRunner {
  constructor(private readonly sfn: SFNClient, private readonly stateMachineArn: string) {}

  async launch(run: StreamRun): Promise<void> {
    const input: LifecycleInput = { userId: run.userId, streamId: run.streamId, runId: run.runId, taskError: null };
    try {
      await this.sfn.send(new StartExecutionCommand({ stateMachineArn: this.stateMachineArn, name: run.executionName, input: JSON.stringify(input) }));
    } catch (error) {
      if (!(error instanceof ExecutionAlreadyExists)) throw error;
    }
  }

  /** Stopping an execution that waits on ecs:runTask.sync stops its task too. */
  async stop(run: StreamRun): Promise<void> {
    const executionArn = `${this.stateMachineArn.replace(':stateMachine:', ':execution:')}:${run.executionName}`;
    try {
      await this.sfn.send(new StopExecutionCommand({ executionArn, cause: 'stopped by the user' }));
    } catch (error) {
      if (!(error instanceof ExecutionDoesNotExist)) throw error;
    }
  }
}
