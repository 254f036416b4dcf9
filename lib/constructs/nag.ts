import { CfnResource, Validations } from 'aws-cdk-lib';
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
