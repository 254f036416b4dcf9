import { CfnResource, Stack, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import type { IBucket } from 'aws-cdk-lib/aws-s3';
import { rules, type NagRuleResult } from 'cdk-nag';
import type { IConstruct } from 'constructs';

type Rule = (node: CfnResource) => NagRuleResult;

const findingRules: Record<string, Rule> = {
  'AwsSolutions-IAM4': rules.iam.IAMNoManagedPolicies,
  'AwsSolutions-IAM5': rules.iam.IAMNoWildcardPermissions,
};

/**
 * Acknowledges, with one reason, every finding of a rule on a construct we do not own (CDK's own custom-resource
 * handlers). cdk-nag matches finding ids exactly (`AwsSolutions-IAM5[Resource::...]`), and those ids contain
 * account and region; computing them with cdk-nag's own rule keeps them exact for every environment.
 */
export function acknowledgeFindings(scope: IConstruct, ruleId: keyof typeof findingRules, reason: string): void {
  const rule = findingRules[ruleId]!;
  for (const node of scope.node.findAll()) {
    if (!CfnResource.isCfnResource(node)) continue;
    const result = rule(node);
    if (!Array.isArray(result)) continue;
    for (const finding of result) Validations.of(node).acknowledge({ id: `${ruleId}[${finding}]`, reason });
  }
}

/** Object grants on per-user prefixes of the media bucket (`uploads/*`, `media/*`): keys are made per user and item
 * at run time, so a prefix wildcard is the narrowest grant possible. */
export function acknowledgeMediaPrefixes(grantee: IGrantable, bucket: IBucket, prefixes: string[]): void {
  const bucketId = Stack.of(bucket).getLogicalId(bucket.node.defaultChild as CfnResource);
  const target = (grantee.grantPrincipal as { node?: IConstruct }).node ? (grantee.grantPrincipal as unknown as IConstruct) : undefined;
  if (!target) return;
  for (const prefix of prefixes) {
    Validations.of(target).acknowledge({
      id: `AwsSolutions-IAM5[Resource::<${bucketId}.Arn>/${prefix}]`,
      reason: `Keys under ${prefix} are created per user and item at run time; the grant is limited to that prefix of the media bucket.`,
    });
  }
}
