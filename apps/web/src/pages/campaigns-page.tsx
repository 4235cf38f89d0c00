import { useGraphql } from '../api/use-graphql';
import { Async, Empty } from '../components/states';
import { dateTime, usd } from '../format';
import { Link } from '../router';

interface Row {
  id: string;
  name: string;
  status: string;
  visibility: string;
  createdAt: string;
  budgetUsd: number;
  spentUsd: number;
  progress: { completed: number; infraFailed: number; cancelled: number; total: number };
}
const CAMPAIGNS = 'query { campaigns(first: 100) { totalCount nodes { id name status visibility createdAt budgetUsd spentUsd progress { completed infraFailed cancelled total } } } }';

export function CampaignsPage() {
  const state = useGraphql<{ campaigns: { totalCount: number; nodes: Row[] } }>(CAMPAIGNS, {});
  return (
    <>
      <h1>Campaigns</h1>
      <Async state={state} what="campaigns">
        {({ campaigns }) =>
          campaigns.nodes.length === 0 ? (
            <Empty>Your organization has no campaigns yet: create one with `fanout campaign create` (see docs/campaigns.md).</Empty>
          ) : (
            <div className="table-scroll">
              <table>
                <caption>Your organization's campaigns, oldest first ({campaigns.totalCount})</caption>
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Status</th>
                    <th scope="col">Visibility</th>
                    <th scope="col" className="num">Finished</th>
                    <th scope="col" className="num">Spent / cap</th>
                    <th scope="col">Created</th>
                  </tr>
                </thead>
                <tbody>
                  {campaigns.nodes.map((c) => (
                    <tr key={c.id}>
                      <th scope="row">
                        <Link to={`/campaigns/${c.id}`}>{c.name}</Link>
                      </th>
                      <td>
                        <span className={`status status-${c.status.toLowerCase()}`}>{c.status.toLowerCase()}</span>
                      </td>
                      <td>{c.visibility}</td>
                      <td className="num">
                        {c.progress.completed + c.progress.infraFailed + c.progress.cancelled} / {c.progress.total}
                      </td>
                      <td className="num">
                        {usd(c.spentUsd)} / {usd(c.budgetUsd)}
                      </td>
                      <td>{dateTime(c.createdAt)}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )
        }
      </Async>
    </>
  );
}
