#include "metatypes.hpp"
#include "onlinerun.hpp"

static void initUiQrc()
{
    // Q_INIT_RESOURCE must be called outside any namespace.
    Q_INIT_RESOURCE(gigacheck_ui);
}

namespace gigacheck::ui {

void registerMetaTypes()
{
    qRegisterMetaType<gigacheck::Span>();
    qRegisterMetaType<QVector<gigacheck::Span>>();
    qRegisterMetaType<QVector<gigacheck::VerifyEvent>>();
    qRegisterMetaType<QVector<gigacheck::InjectEvent>>();
    qRegisterMetaType<gigacheck::RunConfig>();
    qRegisterMetaType<gigacheck::HostMatrix>();
    qRegisterMetaType<gigacheck::Plan>();
    qRegisterMetaType<QVector<gigacheck::ui::HeatmapGrid>>();
    qRegisterMetaType<gigacheck::ui::RecordPtr>();
    qRegisterMetaType<gigacheck::OnlineConfig>();
    qRegisterMetaType<gigacheck::ui::OnlinePtr>();
}

void initResources()
{
    static const bool done = [] {
        initUiQrc();
        return true;
    }();
    (void)done;
}

}  // namespace gigacheck::ui
