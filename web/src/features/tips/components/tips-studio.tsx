/** The writer's Tips tab in their money studio: the tip settings, then every tip received. */
import { ReceivedTips } from './received-tips';
import { TipSettingsForm } from './tip-settings-form';

export function TipsStudio() {
  return (
    <div className="tips-studio">
      <TipSettingsForm />
      <ReceivedTips />
    </div>
  );
}
