import { Spinner } from '../../../components/spinner';
import './videos.css';

/** The upload area's frame while the uploader's code loads, so nothing moves when it arrives. */
export function UploadPanelPlaceholder() {
  return (
    <div className="upload-panel">
      <div className="drop-zone drop-zone--loading" aria-busy="true">
        <Spinner className="spinner--large" />
      </div>
    </div>
  );
}
