import { CfnResource, Validations } from 'aws-cdk-lib';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { AwsSolutionsChecks, rules, type NagRuleResult } from 'cdk-nag';
import type { IConstruct } from 'constructs';

type Rule = (node: CfnResource) => NagRuleResult;

const findingRules = {
  'AwsSolutions-IAM4': rules.iam.IAMNoManagedPolicies as Rule,
  'AwsSolutions-IAM5': rules.iam.IAMNoWildcardPermissions as Rule,
};

interface FindingAcknowledgement {
  ruleId: keyof typeof findingRules;
  reason: string;
  /** Which findings (`Resource::arn:...`, `Action::s3:*`) it covers. */
  finding: RegExp;
}

const pending = new WeakMap<IConstruct, FindingAcknowledgement[]>();

/**
 * Acknowledges, with one reason, the findings of a rule on a construct and everything under it whose text matches
 * `finding` (all of them when omitted). cdk-nag matches finding ids exactly, and those ids are what the final
 * template says: the region and account where the stack has them (`<AWS::Region>` where it does not), an export
 * name where a reference crosses stacks. They are known only once CDK has resolved the references, so they are
 * computed when cdk-nag runs (LoopcastChecks), with cdk-nag's own rule, and are exact in every environment.
 */
export function acknowledgeFindings(scope: IConstruct, ruleId: keyof typeof findingRules, reason: string, finding = /^/): void {
  pending.set(scope, [...(pending.get(scope) ?? []), { ruleId, reason, finding }]);
}

/** Object grants on per-user prefixes of the media bucket (`uploads/*`, `media/*`): keys are made per user and item
 * at run time, so a prefix wildcard is the narrowest grant possible. */
export function acknowledgeMediaPrefixes(grantee: IGrantable, prefixes: string[]): void {
  const principal = grantee.grantPrincipal as Partial<IConstruct>;
  if (!principal.node) return;
  for (const prefix of prefixes) {
    const escaped = prefix.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
    acknowledgeFindings(
      principal as IConstruct,
      'AwsSolutions-IAM5',
      `Keys under ${prefix} are created per user and item at run time; the grant is limited to that prefix of the media bucket.`,
      new RegExp(`^Resource::.*MediaBucket.*/${escaped}$`),
    );
  }
}

function applyPending(root: IConstruct): void {
  for (const scope of root.node.findAll()) {
    const acknowledgements = pending.get(scope);
    if (!acknowledgements) continue;
    for (const node of scope.node.findAll()) {
      if (!CfnResource.isCfnResource(node)) continue;
      for (const { ruleId, reason, finding } of acknowledgements) {
        const result = findingRules[ruleId](node);
        if (!Array.isArray(result)) continue;
        for (const text of result) {
          if (finding.test(text)) Validations.of(node).acknowledge({ id: `${ruleId}[${text}]`, reason });
        }
      }
    }
  }
}

/** cdk-nag's AWS Solutions checks, after applying the acknowledgements above to the resolved construct tree. */
export class LoopcastChecks extends AwsSolutionsChecks {
  override validateScope(scope: IConstruct) {
    applyPending(scope);
    return super.validateScope(scope);
  }
}
