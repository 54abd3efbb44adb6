import { Link } from 'react-router';

/**
 * Said before the token or the secret, on a property whose plan does not let the sender through:
 * a Free property answers every crawl batch 402 and keeps nothing (CRAWL-22), a lapsed one too.
 * Leads are taken on any plan, but a Free property is in no read endpoint. Owners and admins get
 * the way to change the plan; members, who to ask.
 */
export function PlanWarning(props: {
  property: { id: string; plan: string; subscriptionStatus: string };
  channel: 'crawl' | 'webhook';
  manages: boolean;
  teamId: string;
}) {
  const { property, channel, manages, teamId } = props;
  const free = property.plan === 'free';
  const lapsed = !free && property.subscriptionStatus !== 'active';
  if (!free && !lapsed) return null;
  const change = manages ? (
    <>
      Change its plan to Starter, Growth or Scale under{' '}
      <Link to={`/t/${teamId}/p/${property.id}/settings`}>Brand and prompts</Link>.
    </>
  ) : (
    <>Ask an owner or admin of the team to change its plan.</>
  );
  return (
    <div className="warning" role="note" data-testid="plan-warning">
      {channel === 'crawl' ? (
        free ? (
          <p>
            <strong>This property is on the Free plan, which does not take in crawl logs.</strong> Every batch sent with
            the token below is refused (402, payment required) and nothing is kept. {change}
          </p>
        ) : (
          <p>
            <strong>This property’s subscription has lapsed.</strong> Every batch is refused (402, payment required) and
            nothing is kept until it is renewed; renewal is handled outside this console.
          </p>
        )
      ) : free ? (
        <p>
          <strong>This property is on the Free plan.</strong> Leads sent here are still accepted and listed under
          Activity, but the read API (/v1) returns nothing for a Free property, and its crawl logs are refused. {change}
        </p>
      ) : (
        <p>
          <strong>This property’s subscription has lapsed.</strong> Leads sent here are still accepted and listed under
          Activity, but the read API (/v1) returns nothing for it and its crawl logs are refused until it is renewed.
        </p>
      )}
    </div>
  );
}
